import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseCore
import SiseTestSupport
import Testing

/// Web Push's key: `GET /api/push/key` gives the VAPID public key (an uncompressed P-256 point),
/// made once and kept in the store — a second server on the same store (a replica, a restart)
/// and `sise push key` give the same one.
@Suite struct PushAPITests {
    static func publicKey(_ client: some TestClientProtocol) async throws -> String {
        let response = try await client.execute(uri: "/api/push/key", method: .get)
        #expect(response.status == .ok)
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        return try #require(object?["publicKey"] as? String)
    }

    @Test func theKeyIsAPointKeptInTheStoreForEveryReplicaAndTheCLI() async throws {
        let directory = ServerHarness.temporaryDirectory()
        let first = try await ServerHarness.run(dataDirectory: directory) { try await Self.publicKey($0) }
        let point = try #require(Base64URL.decode(first))
        #expect(point.count == 65 && point.first == 0x04)
        #expect((try? P256.Signing.PublicKey(x963Representation: point)) != nil, "a point on the curve")
        let again = try await ServerHarness.run(dataDirectory: directory) { try await Self.publicKey($0) }
        #expect(again == first, "the same key after a restart, as on every replica of one store")
        // The CLI reads the data directory's SQLite store (the harness's PostgreSQL mode keeps its store elsewhere).
        if ProcessInfo.processInfo.environment["SISE_TEST_STORE"] != "postgres" {
            let printed = try await SiseBinary.run(["push", "key", "--data-dir", directory.path])
            #expect(printed.status == 0 && printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == first, "\(printed.stderr)")
        }
        let other = try await ServerHarness.run { try await Self.publicKey($0) }
        #expect(other != first, "another store, another key")
    }

    static func post(_ client: some TestClientProtocol, _ headers: HTTPFields, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: "/api/push/subscriptions", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    static func field(_ response: TestResponse) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any])
            .flatMap { $0["error"] as? [String: Any] }?["field"] as? String
    }

    /// A browser's subscription kept for its owner and listed without its endpoint; the same
    /// browser subscribing again replaces its row; bad keys and endpoints are refused naming their
    /// field; at most ten an owner; removed by id.
    @Test(arguments: [false, true])
    func subscriptionsAreKeptCheckedAndRemoved(allowPrivate: Bool) async throws {
        try await ServerHarness.run(allowPrivateWebhooks: allowPrivate) { client in
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/alerts", method: .get))
            var headers = jar.pageHeaders
            headers[.contentType] = "application/json"
            let browser = P256.KeyAgreement.PrivateKey()
            let p256dh = Base64URL.encode(browser.publicKey.x963Representation)
            let auth = Base64URL.encode(Data(repeating: 7, count: 16))
            // The browser's point with its last bit flipped: y no longer fits x, so it is off the curve.
            // (Editing the text's last letters could touch only the encoding's padding bits.)
            var bent = browser.publicKey.x963Representation
            bent[bent.endIndex - 1] ^= 0x01
            let offCurve = Base64URL.encode(bent)
            func body(_ endpoint: String, _ key: String = p256dh, _ secret: String = auth) -> String {
                #"{"endpoint":"\#(endpoint)","keys":{"p256dh":"\#(key)","auth":"\#(secret)"}}"#
            }
            let endpoint = "https://push.example.net/send/abc-123"
            let created = try await Self.post(client, headers, body(endpoint))
            #expect(created.status == .created)
            #expect(!String(buffer: created.body).contains("abc-123"), "the endpoint is a capability: never sent back")
            let again = try await Self.post(client, headers, body(endpoint))
            #expect(again.status == .created)
            let listed =
                try JSONSerialization.jsonObject(
                    with: Data(
                        buffer: try await client.execute(
                            uri: "/api/push/subscriptions",
                            method: .get,
                            headers: jar.pageHeaders
                        ).body
                    )
                ) as? [String: Any]
            let rows = try #require(listed?["subscriptions"] as? [[String: Any]])
            #expect(rows.count == 1 && rows.first?["host"] as? String == "push.example.net", "the same browser again: one row")
            let refusals: [(String, String)] =
                [
                    (body("not a url"), "endpoint"), (body("ftp://push.example.net/x"), "endpoint"),
                    (body(endpoint + "/2", "AAAA"), "p256dh"),
                    (body(endpoint + "/3", offCurve), "p256dh"),
                    (body(endpoint + "/4", p256dh, "c2hvcnQ"), "auth"),
                ]
                + (allowPrivate
                    ? []
                    : [
                        (body("http://push.example.net/x"), "endpoint"), (body("https://127.0.0.1/x"), "endpoint"),
                        (body("https://10.1.2.3/x"), "endpoint"),
                    ])
            for (bad, field) in refusals {
                let refused = try await Self.post(client, headers, bad)
                #expect(
                    refused.status == .badRequest && Self.field(refused) == field,
                    "\(bad): \(refused.status) \(String(buffer: refused.body))"
                )
            }
            if allowPrivate {
                #expect(try await Self.post(client, headers, body("http://127.0.0.1:9/push")).status == .created)
            }
            for index in 0..<12 { _ = try await Self.post(client, headers, body("https://push.example.net/send/\(index)")) }
            let count =
                try JSONSerialization.jsonObject(
                    with: Data(
                        buffer: try await client.execute(
                            uri: "/api/push/subscriptions",
                            method: .get,
                            headers: jar.pageHeaders
                        ).body
                    )
                ) as? [String: Any]
            #expect((count?["subscriptions"] as? [Any])?.count == 10, "at most ten an owner")
            let id = try #require(rows.first?["id"] as? String)
            #expect(try await client.execute(uri: "/api/push/subscriptions/\(id)", method: .delete, headers: headers).status == .ok)
            #expect(try await client.execute(uri: "/api/push/subscriptions/\(id)", method: .delete, headers: headers).status == .notFound)
        }
    }

    /// A device's push subscription moves with the rest of its data into the account that signs
    /// up on it, and is then listed (and delivered) for that account on every device.
    @Test func aDevicesSubscriptionMovesIntoItsAccount() async throws {
        try await AccountsAPITests.run { client in
            var jar = try await AccountsAPITests.fresh(client)
            let browser = P256.KeyAgreement.PrivateKey()
            let body =
                #"{"endpoint":"https://push.example.net/send/moving","keys":{"p256dh":"\#(Base64URL.encode(browser.publicKey.x963Representation))","auth":"\#(Base64URL.encode(Data(repeating: 1, count: 16)))"}}"#
            #expect(try await AccountsAPITests.post(client, "/api/push/subscriptions", body, &jar).status == .created)
            let created = try await AccountsAPITests.post(
                client,
                "/api/auth/signup",
                #"{"email":"push@example.kr","password":"a long secret","nickname":"푸시"}"#,
                &jar
            )
            #expect(created.status == .created || created.status == .ok)
            var other = try await AccountsAPITests.fresh(client)
            let login = try await AccountsAPITests.post(client, "/api/auth/login", #"{"login":"push@example.kr","password":"a long secret"}"#, &other)
            #expect(login.status == .ok)
            let listed =
                try JSONSerialization.jsonObject(
                    with: Data(
                        buffer: try await client.execute(
                            uri: "/api/push/subscriptions",
                            method: .get,
                            headers: other.pageHeaders
                        ).body
                    )
                ) as? [String: Any]
            #expect((listed?["subscriptions"] as? [[String: Any]])?.first?["host"] as? String == "push.example.net", "\(String(describing: listed))")
        }
    }

    /// An endpoint belongs to the owner who subscribed it: another owner who learns the URL cannot
    /// take it with keys of their own (the victim would silently lose push), and a move with the
    /// subscription's own keys (the same browser, logged in) counts against the new owner's ten.
    @Test func anEndpointIsNotTakenByWhoeverKnowsItsURL() async throws {
        try await ServerHarness.run { client in
            func body(_ endpoint: String, _ key: P256.KeyAgreement.PrivateKey, _ secret: UInt8) -> String {
                #"{"endpoint":"\#(endpoint)","keys":{"p256dh":"\#(Base64URL.encode(key.publicKey.x963Representation))","auth":"\#(Base64URL.encode(Data(repeating: secret, count: 16)))"}}"#
            }
            func count(_ jar: CookieJar) async throws -> Int {
                let listed =
                    try JSONSerialization.jsonObject(
                        with: Data(
                            buffer: try await client.execute(
                                uri: "/api/push/subscriptions",
                                method: .get,
                                headers: jar.pageHeaders
                            ).body
                        )
                    ) as? [String: Any]
                return (listed?["subscriptions"] as? [Any])?.count ?? -1
            }
            let (victimJar, victim) = try await CookieJar.visitor(client)
            let (attackerJar, attacker) = try await CookieJar.visitor(client)
            let browser = P256.KeyAgreement.PrivateKey()
            let endpoint = "https://push.example.net/send/victim"
            #expect(try await Self.post(client, victim, body(endpoint, browser, 1)).status == .created)
            let taken = try await Self.post(client, attacker, body(endpoint, P256.KeyAgreement.PrivateKey(), 2))
            #expect(taken.status == .conflict && Self.field(taken) == "endpoint", "\(String(buffer: taken.body))")
            let (victimCount, attackerCount) = (try await count(victimJar), try await count(attackerJar))
            #expect(victimCount == 1 && attackerCount == 0, "the victim keeps its push")
            // The attacker fills its ten; the victim's own keys would move the endpoint, but not past ten.
            for index in 0..<10 {
                #expect(try await Self.post(client, attacker, body("https://push.example.net/send/a\(index)", browser, 3)).status == .created)
            }
            let over = try await Self.post(client, attacker, body(endpoint, browser, 1))
            #expect(over.status == .conflict, "\(String(buffer: over.body))")
            let (filled, kept) = (try await count(attackerJar), try await count(victimJar))
            #expect(filled == 10 && kept == 1, "no eleventh, by any way in")
        }
    }
}
