import Foundation
import Hummingbird
import HummingbirdTesting
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// `sise alerts webhook` as a script uses it: a Telegram chat, a Discord and a Slack webhook kept
/// for the terminal (checked as the API checks them, secrets never printed), and `sise watch
/// --alerts` sending a firing to each through the store's queue — every request the one the
/// service documents, checked by a stand-in on loopback.
@Suite struct AlertsWebhookCommandTests {
    final class Posts: Sendable {
        let all = Mutex<[(path: String, body: Data)]>([])
        func at(_ prefix: String) -> [(path: String, body: Data)] { all.withLock { $0.filter { $0.path.hasPrefix(prefix) } } }
    }

    @Test func chatsAreKeptAndReachedFromTheTerminal() async throws {
        let posts = Posts()
        let router = Router()
        router.post("/**") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 65_536)
            posts.all.withLock { $0.append((request.uri.path, Data(buffer: body))) }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"ok":true}"#)))
        }
        let standIn = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await standIn.test(.live) { standInClient in
            let base = "http://127.0.0.1:\(try #require(standInClient.port))"
            let environment = [
                "SISE_TELEGRAM_API_URL": base + "/tg", "SISE_DISCORD_WEBHOOK_URL": base + "/discord/",
                "SISE_SLACK_WEBHOOK_URL": base + "/slack/",
            ]
            try await withSimulator { simulator in
                let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-hooks-\(UUID().uuidString)").path
                let url = simulator.baseURL.absoluteString
                let token = "123456789:AAH-terminal_secret_token_0123"
                for args in [
                    ["--telegram", token, "@sise_alerts"], ["--discord", base + "/discord/42/discord-secret"],
                    ["--slack", base + "/slack/T1/B1/slack-secret"],
                ] {
                    let added = try await SiseBinary.run(
                        ["alerts", "webhook", "add"] + args + ["--allow-private", "--data-dir", data],
                        environment: environment
                    )
                    #expect(added.status == 0, "\(args): \(added.stderr)")
                }
                let refused = try await SiseBinary.run(
                    [
                        "alerts", "webhook", "add", "--discord", base + "/elsewhere/1/2", "--allow-private",
                        "--data-dir", data,
                    ],
                    environment: environment
                )
                #expect(refused.status == 2 && refused.stderr.contains("url"), "\(refused.stderr)")
                let listed = try await SiseBinary.run(["alerts", "webhook", "list", "--json", "--data-dir", data])
                #expect(listed.status == 0 && !listed.stdout.contains("secret") && listed.stdout.contains("@sise_alerts"), "\(listed.stdout)")
                #expect(
                    (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])?["webhooks"].map { ($0 as? [Any])?.count }
                        == 3
                )

                #expect(try await SiseBinary.run(["alerts", "add", "KRW-BTC", "above", "1", "--upbit-url", url, "--data-dir", data]).status == 0)
                let watch = try await SiseBinary.run(
                    [
                        "watch", "--alerts", "--json", "--duration", "5", "--allow-private-webhooks", "--upbit-url", url,
                        "--data-dir", data, "--lang", "en",
                    ],
                    environment: environment
                )
                #expect(watch.status == 0, "\(watch.stderr)")
                let telegram = try #require(posts.at("/tg/").first)
                #expect(telegram.path == "/tg/bot\(token)/sendMessage")
                let message = try #require(try JSONSerialization.jsonObject(with: telegram.body) as? [String: Any])
                #expect(message["chat_id"] as? String == "@sise_alerts" && (message["text"] as? String)?.contains("KRW-BTC") == true)
                #expect(posts.at("/discord/42/discord-secret").count == 1 && posts.at("/slack/T1/B1/slack-secret").count == 1)
            }
        }
    }

    /// A destination's quiet hours and daily cap from the terminal: set when it is added, changed
    /// with `quiet`, refused (exit 2) when half a pair, and shown in the list.
    @Test func quietHoursAndADailyCapFromTheTerminal() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-cli-quiet-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        func object(_ text: String) -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        }
        let added = try await SiseBinary.run([
            "alerts", "webhook", "add", "https://hooks.example.net/sise", "secret-secret", "--quiet", "23:00-07:00", "--daily-cap", "20", "--json",
            "--data-dir", data,
        ])
        let hook = try #require(object(added.stdout), "\(added.stderr)")
        #expect(hook["quietStart"] as? String == "23:00" && hook["quietEnd"] as? String == "07:00" && hook["dailyCap"] as? Int == 20, "\(hook)")
        let id = try #require(hook["id"] as? String)
        let half = try await SiseBinary.run(["alerts", "webhook", "quiet", id, "--quiet", "23:00", "--lang", "en", "--data-dir", data])
        #expect(half.status == 2 && half.stderr.contains("'Quiet hours' need both 'From' and 'Until'"), "\(half.stderr)")
        let changed = try await SiseBinary.run([
            "alerts", "webhook", "quiet", id, "--time-zone", "Asia/Tokyo", "--no-cap", "--lang", "en", "--data-dir", data,
        ])
        #expect(changed.status == 0 && changed.stdout.contains("quiet 23:00–07:00 (Asia/Tokyo)"), "\(changed.stdout) \(changed.stderr)")
        let listed = try await SiseBinary.run(["alerts", "webhook", "list", "--lang", "en", "--data-dir", data])
        #expect(listed.stdout.contains("quiet 23:00–07:00 (Asia/Tokyo)") && !listed.stdout.contains("a day"), "\(listed.stdout)")
    }
}
