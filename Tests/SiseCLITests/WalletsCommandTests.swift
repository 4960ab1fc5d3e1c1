import Foundation
import SiseCore
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise wallets` against the simulator: one coin on every exchange (Upbit with a key), what is
/// suspended, "key needed" without a key — and the key in no output, no error and no export.
@Suite(.serialized) struct WalletsCommandTests {
    static func urls(_ simulator: RunningSimulator) -> [String] {
        ExchangeRegistry.all.flatMap { ["--" + $0.restSetting, $0.simulated(at: simulator.baseURL).rest.absoluteString] }
    }

    @Test func aCoinOnEveryExchangeAndWhatIsSuspended() async throws {
        try await withSimulator { simulator in
            let key = ["--upbit-access-key", SimulatedUpbitKey.access, "--upbit-secret-key", SimulatedUpbitKey.secret]
            let one = try await SiseBinary.run(["wallets", "BTC", "--json"] + Self.urls(simulator) + key)
            #expect(one.status == 0, "\(one.stderr)")
            let table = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
            let states = (table["exchanges"] as? [[String: Any]])?.compactMap { $0["state"] as? String }
            #expect(states == ["live", "live", "live", "live"], "\(table["exchanges"] ?? "")")
            let rows = try #require(table["wallets"] as? [[String: Any]])
            #expect(Set(rows.compactMap { $0["exchange"] as? String }).count == 4 && rows.allSatisfy { $0["currency"] as? String == "BTC" })
            // Upbit's fee and minimum come one network at a time (`/v1/withdraws/chance`, the query signed too).
            let upbit = rows.filter { $0["exchange"] as? String == "upbit" }
            #expect(!upbit.isEmpty && upbit.allSatisfy { $0["withdrawFee"] is String && $0["withdrawMinimum"] is String }, "\(upbit)")

            try await SimAdmin.post(simulator, "/_sim/wallets", #"{"exchange":"korbit","currency":"XRP","withdraw":false}"#)
            let shut = try await SiseBinary.run(["wallets", "--lang", "en"] + Self.urls(simulator))
            #expect(shut.status == 0, "\(shut.stderr)")
            #expect(shut.stdout.contains("Upbit: key needed"), "\(shut.stdout)")
            let lines = shut.stdout.split(separator: "\n").filter { $0.hasPrefix("Korbit") }
            #expect(lines.count == 1 && lines[0].contains("XRP") && lines[0].contains("suspended"), "\(shut.stdout)")
            let json = try await SiseBinary.run(["wallets", "--exchange", "korbit", "--json"] + Self.urls(simulator))
            let korbit = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let summary = try #require((korbit["summaries"] as? [[String: Any]])?.first)
            #expect(summary["symbol"] as? String == "XRP" && summary["withdraw"] as? String == "suspended" && summary["deposit"] as? String == "open")
            #expect((korbit["exchanges"] as? [[String: Any]])?.count == 1)
        }
    }

    /// A key given by flag or environment never comes back: not in a refusal, not in output, not
    /// in `db export`; half a key is refused naming the settings, not the value.
    @Test func theKeyIsNeverShown() async throws {
        try await withSimulator { simulator in
            let secret = "a-secret-that-must-not-show-42"
            let wrong = try await SiseBinary.run(
                ["wallets", "BTC", "--lang", "en", "--upbit-access-key", "access-that-must-not-show", "--upbit-secret-key", secret]
                    + Self.urls(simulator)
            )
            let said = wrong.stdout + wrong.stderr
            #expect(said.contains("Upbit") && !said.contains(secret) && !said.contains("access-that-must-not-show"), "\(said)")
            let half = try await SiseBinary.run(["wallets", "--upbit-secret-key", secret])
            #expect(half.status == 2 && half.stderr.contains("--upbit-access-key") && !half.stderr.contains(secret), "\(half.stderr)")
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-key-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: data) }
            let environment = ["SISE_UPBIT_ACCESS_KEY": SimulatedUpbitKey.access, "SISE_UPBIT_SECRET_KEY": secret]
            #expect(try await SiseBinary.run(["alerts", "add", "BTC", "above", "1", "--data-dir", data], environment: environment).status == 0)
            let export = try await SiseBinary.run(["db", "export", "--data-dir", data], environment: environment)
            #expect(export.status == 0 && !export.stdout.contains(secret) && !export.stderr.contains(secret))

            // `serve` reading Upbit's wallets with a refused key, logging at debug: no line holds it.
            let serve = try SiseProcess(
                ["serve", "--port", "0", "--data-dir", data, "--wallets-every", "1"] + Self.urls(simulator),
                environment: ["SISE_UPBIT_ACCESS_KEY": "access-that-must-not-show", "SISE_UPBIT_SECRET_KEY": secret, "LOG_LEVEL": "debug"],
                logs: true
            )
            defer { _ = serve.terminate() }
            try await expectEventually(timeout: .seconds(20)) { serve.lines.contains { $0.hasPrefix("listening on ") } }
            try await expectEventually(timeout: .seconds(10), "Upbit refused the key") { serve.lines.contains { $0.contains("wallets failed") } }
            let logged = serve.lines.joined(separator: "\n")
            #expect(!logged.contains(secret) && !logged.contains("access-that-must-not-show"))
        }
    }
}
