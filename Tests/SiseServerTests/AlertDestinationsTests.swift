import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SiseCore
import SiseFeeds
import SiseServer
import SiseTestSupport
import Synchronization
import Testing

/// An alert that fires with no page open reaches every kind of destination, each checked by a
/// stand-in on loopback the way the real service would: a browser's push service gets an
/// aes128gcm body that opens with the subscription's private key to the documented JSON, under a
/// VAPID header that verifies with `/api/push/key`; a gone subscription (410) is removed; a busy
/// one (429) is tried again; Telegram, Discord and Slack get the request each documents, in the
/// destination's language; the secrets never come back from the API.
@Suite struct AlertDestinationsTests {
    struct Received: Sendable {
        let path: String
        let headers: [String: String]
        let body: Data
    }

    final class StandIn: Sendable {
        let received = Mutex<[Received]>([])
        let busyOnce = Mutex(true)
        /// True the first time only.
        func firstBusy() -> Bool {
            busyOnce.withLock { first in
                let was = first
                first = false
                return was
            }
        }
        func add(_ item: Received) { received.withLock { $0.append(item) } }
        func at(_ prefix: String) -> [Received] { received.withLock { $0.filter { $0.path.hasPrefix(prefix) } } }
    }

    static func standIn(_ inbox: StandIn) -> some ApplicationProtocol {
        let router = Router()
        router.post("/**") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 65_536)
            var headers: [String: String] = [:]
            // Names in lower case (HTTP's are case-insensitive).
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let path = request.uri.path
            inbox.add(Received(path: path, headers: headers, body: Data(buffer: body)))
            if path.hasPrefix("/gone") { return Response(status: .gone) }
            if path.hasPrefix("/slower") {
                try await Task.sleep(for: .milliseconds(4_500))
            } else if path.hasPrefix("/slow") {
                try await Task.sleep(for: .seconds(4))
            }
            if path.hasPrefix("/busy"), inbox.firstBusy() { return Response(status: .tooManyRequests) }
            return Response(
                status: path.hasPrefix("/push") || path.hasPrefix("/busy") || path.hasPrefix("/slower/tab") ? .created : .ok,
                body: .init(byteBuffer: ByteBuffer(string: #"{"ok":true}"#))
            )
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    @Test func aFiringReachesPushAndEveryChatWithNoPageOpen() async throws {
        let inbox = StandIn()
        try await Self.standIn(inbox).test(.live) { standInClient in
            let port = try #require(standInClient.port)
            let base = "http://127.0.0.1:\(port)"
            let chats = ChatServices(
                telegram: try #require(URL(string: base + "/tg")),
                discord: try #require(URL(string: base + "/discord/")),
                slack: try #require(URL(string: base + "/slack/"))
            )
            try await ServerHarness.run(
                allowPrivateWebhooks: true,
                configure: {
                    $0.webhookRetryDelays = [.milliseconds(200), .milliseconds(200)]
                    $0.chats = chats
                }
            ) { client in
                var jar = CookieJar()
                jar.take(try await client.execute(uri: "/api/alerts", method: .get))
                var headers = jar.pageHeaders
                headers[.contentType] = "application/json"
                func post(_ uri: String, _ body: String) async throws -> TestResponse {
                    try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
                }
                let browser = P256.KeyAgreement.PrivateKey()
                let auth = WebPushEncryption.randomBytes(16)
                let keys = #""keys":{"p256dh":"\#(Base64URL.encode(browser.publicKey.x963Representation))","auth":"\#(Base64URL.encode(auth))"}"#
                for path in ["/push/phone", "/gone/old-tab", "/busy/laptop"] {
                    let created = try await post("/api/push/subscriptions", #"{"endpoint":"\#(base + path)",\#(keys),"lang":"en"}"#)
                    #expect(created.status == .created, "\(path): \(String(buffer: created.body))")
                }
                let token = "123456789:AAH-secret_token_of_this_test_0123"
                let discord = base + "/discord/1111/discord-secret-token"
                let slack = base + "/slack/T000/B000/slack-secret-token"
                for body in [
                    #"{"kind":"telegram","botToken":"\#(token)","chatId":"-1001234567890","lang":"ko"}"#,
                    #"{"kind":"discord","url":"\#(discord)","lang":"en"}"#, #"{"kind":"slack","url":"\#(slack)"}"#,
                ] {
                    let created = try await post("/api/webhooks", body)
                    #expect(created.status == .created, "\(body): \(String(buffer: created.body))")
                    #expect(!String(buffer: created.body).contains("secret"), "a secret never comes back")
                }
                // Five webhooks and chats an owner at most (push subscriptions count apart).
                for index in 0..<2 {
                    #expect(try await post("/api/webhooks", #"{"url":"\#(base)/hook/\#(index)","secret":"a-secret-\#(index)"}"#).status == .created)
                }
                #expect(
                    try await post("/api/webhooks", #"{"kind":"slack","url":"\#(base)/slack/T/B/sixth"}"#).status == .conflict,
                    "a sixth is refused"
                )
                let listed = String(buffer: try await client.execute(uri: "/api/webhooks", method: .get, headers: jar.pageHeaders).body)
                #expect(!listed.contains("secret") && listed.contains("\"kind\":\"telegram\"") && listed.contains("-1001234567890"), "\(listed)")
                // Refusals name their field: a URL outside the service, a token that is not one.
                for (body, field) in [
                    (#"{"kind":"discord","url":"\#(base)/elsewhere/1/2"}"#, "url"),
                    (#"{"kind":"telegram","botToken":"nope","chatId":"1"}"#, "botToken"),
                    (#"{"kind":"telegram","botToken":"\#(token)","chatId":"x y"}"#, "chatId"), (#"{"kind":"push"}"#, "kind"),
                ] {
                    let refused = try await post("/api/webhooks", body)
                    let error = (try? JSONSerialization.jsonObject(with: Data(buffer: refused.body)) as? [String: Any])?["error"] as? [String: Any]
                    #expect(refused.status == .badRequest && error?["field"] as? String == field, "\(body)")
                }

                // No page is open: the rule fires at once and only the destinations hear of it.
                #expect(try await post("/api/alerts", #"{"exchange":"upbit","market":"KRW-BTC","type":"above","price":"1"}"#).status == .created)
                let delivered = try await waitUntil(timeout: .seconds(15)) {
                    ["/push/", "/gone/", "/tg/", "/discord/", "/slack/"].allSatisfy { !inbox.at($0).isEmpty } && inbox.at("/busy/").count >= 2
                        && inbox.at("/hook/").count >= 2
                }
                #expect(delivered, "\(inbox.received.withLock { $0.map(\.path) })")

                // The push message: encrypted to the browser, signed by the server's key.
                let push = try #require(inbox.at("/push/").first)
                #expect(push.headers["content-encoding"] == "aes128gcm" && push.headers["urgency"] == "high" && push.headers["ttl"] != nil)
                let serverKey = try #require(
                    (try JSONSerialization.jsonObject(with: Data(buffer: try await client.execute(uri: "/api/push/key", method: .get).body))
                        as? [String: Any])?["publicKey"] as? String
                )
                let authorization = try #require(push.headers["authorization"])
                #expect(authorization.hasPrefix("vapid t=") && authorization.hasSuffix(", k=" + serverKey))
                let jwt = String(authorization.dropFirst("vapid t=".count).prefix { $0 != "," })
                let parts = jwt.split(separator: ".").map(String.init)
                let verifier = try P256.Signing.PublicKey(x963Representation: try #require(Base64URL.decode(serverKey)))
                let signature = try P256.Signing.ECDSASignature(rawRepresentation: try #require(Base64URL.decode(parts[2])))
                #expect(verifier.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
                let claimBytes = try #require(Base64URL.decode(parts[1]))
                let claims = try #require(try JSONSerialization.jsonObject(with: claimBytes) as? [String: Any])
                #expect(claims["aud"] as? String == base && (claims["exp"] as? Int ?? 0) > Int(Date().timeIntervalSince1970))
                let opened = try WebPushEncryption.decrypt(push.body, receiverKey: browser, auth: auth)
                let message = try #require(try JSONSerialization.jsonObject(with: opened) as? [String: Any])
                for key in ["id", "alertId", "exchange", "market", "rule", "price", "at", "title", "body", "url"] {
                    #expect(message[key] != nil, "\(key)")
                }
                #expect(message["market"] as? String == "KRW-BTC" && message["url"] as? String == "/coin/KRW-BTC?exchange=upbit")
                #expect((message["title"] as? String)?.contains("alert") == true, "in the subscription's language (en)")

                // Gone: removed; busy: delivered on the second try.
                let left =
                    try JSONSerialization.jsonObject(
                        with: Data(
                            buffer: try await client.execute(
                                uri: "/api/push/subscriptions",
                                method: .get,
                                headers: jar.pageHeaders
                            ).body
                        )
                    ) as? [String: Any]
                #expect((left?["subscriptions"] as? [[String: Any]])?.compactMap { $0["id"] }.count == 2, "the 410 one is gone")

                // The chats: each service's documented request.
                let telegram = try #require(inbox.at("/tg/").first)
                #expect(telegram.path == "/tg/bot\(token)/sendMessage")
                let sent = try #require(try JSONSerialization.jsonObject(with: telegram.body) as? [String: Any])
                #expect(sent["chat_id"] as? String == "-1001234567890" && (sent["text"] as? String)?.contains("현재가") == true, "\(sent)")
                let discordPost = try #require(inbox.at("/discord/").first)
                let discordBody = try #require(try JSONSerialization.jsonObject(with: discordPost.body) as? [String: Any])
                #expect(Set(discordBody.keys) == ["content"] && (discordBody["content"] as? String)?.contains("price") == true)
                let slackPost = try #require(inbox.at("/slack/").first)
                let slackBody = try #require(try JSONSerialization.jsonObject(with: slackPost.body) as? [String: Any])
                #expect(Set(slackBody.keys) == ["text"] && (slackBody["text"] as? String)?.contains("KRW-BTC") == true)
                #expect(inbox.at("/tg/").count == 1 && inbox.at("/discord/").count == 1 && inbox.at("/slack/").count == 1, "each once")
                #expect(inbox.at("/hook/").count == 2, "and each signed webhook once")
            }
        }
    }

    /// One owner's push service answers slowly (4 s): another owner's firing, due meanwhile, is
    /// posted at once — the queue keeps the slow request in its own slot.
    @Test func aSlowPushServiceHoldsNoOneElsesFiring() async throws {
        let inbox = StandIn()
        try await Self.standIn(inbox).test(.live) { standInClient in
            let base = "http://127.0.0.1:\(try #require(standInClient.port))"
            let chats = ChatServices(slack: try #require(URL(string: base + "/slack/")))
            try await ServerHarness.run(allowPrivateWebhooks: true, configure: { $0.chats = chats }) { client in
                let (slow, quick) = (try await CookieJar.visitor(client).json, try await CookieJar.visitor(client).json)
                let browser = P256.KeyAgreement.PrivateKey()
                let keys =
                    #""keys":{"p256dh":"\#(Base64URL.encode(browser.publicKey.x963Representation))","auth":"\#(Base64URL.encode(WebPushEncryption.randomBytes(16)))"}"#
                #expect(
                    try await client.execute(
                        uri: "/api/push/subscriptions",
                        method: .post,
                        headers: slow,
                        body: ByteBuffer(string: #"{"endpoint":"\#(base)/slow/tab",\#(keys)}"#)
                    ).status == .created
                )
                #expect(
                    try await client.execute(
                        uri: "/api/webhooks",
                        method: .post,
                        headers: quick,
                        body: ByteBuffer(string: #"{"kind":"slack","url":"\#(base)/slack/T/B/quick"}"#)
                    ).status == .created
                )
                let rule = ByteBuffer(string: #"{"exchange":"upbit","market":"KRW-BTC","type":"above","price":"1"}"#)
                #expect(try await client.execute(uri: "/api/alerts", method: .post, headers: slow, body: rule).status == .created)
                #expect(try await waitUntil(timeout: .seconds(10)) { !inbox.at("/slow/").isEmpty }, "the slow service is being asked")
                let asked = ContinuousClock.now
                #expect(try await client.execute(uri: "/api/alerts", method: .post, headers: quick, body: rule).status == .created)
                #expect(try await waitUntil(timeout: .seconds(10)) { !inbox.at("/slack/").isEmpty })
                let waited = asked.duration(to: .now)
                #expect(waited < .seconds(3), "the other owner's firing waited \(waited) behind a slow push service")
            }
        }
    }
}
