import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseCore
import SiseFeeds
import SiseServer
import SiseSimulator
import SiseTestSupport
import Testing

/// An account's read-only exchange keys over the API, against the simulator's verifier: a key
/// is tried before it is kept, a refused one is not kept and says what to fix, a kept one is
/// shown by its last four characters only, the accounts it reads are valued at the live boards,
/// and neither half of a key ever comes back out — in an answer, `/metrics` or the store's file.
@Suite struct ExchangeKeysAPITests {
    static let access = SimulatedAccountKey.access(.upbit)
    static let secret = SimulatedAccountKey.secret(.upbit)

    static func signedUp(_ client: any TestClientProtocol) async throws -> CookieJar {
        var jar = try await AccountsAPITests.fresh(client)
        let created = try await AccountsAPITests.post(
            client,
            "/api/auth/signup",
            #"{"email":"keys@example.kr","password":"a long secret","nickname":"키"}"#,
            &jar
        )
        #expect(created.status == .created)
        return jar
    }

    static func put(
        _ client: any TestClientProtocol,
        _ exchange: String,
        access: String,
        secret: String,
        _ jar: inout CookieJar
    ) async throws
        -> TestResponse
    {
        let body = String(decoding: try JSONEncoder().encode(["access": access, "secret": secret]), as: UTF8.self)
        return try await AccountsAPITests.post(client, "/api/exchange-keys/\(exchange)", body, &jar, method: .put)
    }

    @Test func anAnonymousVisitorConnectsNoKey() async throws {
        try await AccountsAPITests.run { client in
            var jar = try await AccountsAPITests.fresh(client)
            for uri in ["/api/exchange-keys", "/api/portfolio/accounts"] {
                let answer = try await client.execute(uri: uri, method: .get, headers: jar.pageHeaders)
                #expect(answer.status == .unauthorized, "\(uri)")
            }
            let put = try await Self.put(client, "upbit", access: Self.access, secret: Self.secret, &jar)
            #expect(put.status == .unauthorized)
        }
    }

    @Test func aKeyIsTriedKeptShownByItsHintAndReadsTheAccount() async throws {
        try await AccountsAPITests.run { client in
            var jar = try await Self.signedUp(client)
            // No such exchange, and a body that is not a key.
            let binance = try await Self.put(client, "binance", access: Self.access, secret: Self.secret, &jar)
            #expect(binance.status == .badRequest && errorCode(binance) == "bad_parameter")
            let blank = try await AccountsAPITests.post(client, "/api/exchange-keys/upbit", #"{"access":" ","secret":"x"}"#, &jar, method: .put)
            #expect(blank.status == .badRequest)

            // The wrong secret: the simulator cannot verify the signature; nothing is kept.
            let wrong = try await Self.put(client, "upbit", access: Self.access, secret: "not-the-secret-0000", &jar)
            #expect(wrong.status == .unprocessableContent && errorCode(wrong) == "key_refused")
            let wrongMessage = ((json(wrong) as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(wrongMessage.contains("업비트") || wrongMessage.contains("Upbit"), "\(wrongMessage)")
            let none = try #require(
                json(try await client.execute(uri: "/api/exchange-keys", method: .get, headers: jar.pageHeaders)) as? [String: Any]
            )
            #expect((none["keys"] as? [Any])?.isEmpty == true)

            let kept = try await Self.put(client, "upbit", access: Self.access, secret: Self.secret, &jar)
            #expect(kept.status == .created)
            let key = try #require((json(kept) as? [String: Any])?["key"] as? [String: Any])
            #expect(key["hint"] as? String == String(Self.access.suffix(4)) && key["exchange"] as? String == "upbit")

            let listed = try #require(
                json(try await client.execute(uri: "/api/exchange-keys", method: .get, headers: jar.pageHeaders)) as? [String: Any]
            )
            let keys = try #require(listed["keys"] as? [[String: Any]])
            #expect(keys.count == 1 && keys.first?["hint"] as? String == String(Self.access.suffix(4)) && keys.first?["problem"] == nil)

            let read = try await client.execute(uri: "/api/portfolio/accounts?lang=ko", method: .get, headers: jar.pageHeaders)
            #expect(read.status == .ok)
            let answer = try #require(json(read) as? [String: Any])
            let sources = try #require(answer["sources"] as? [[String: Any]])
            #expect(sources.map { $0["state"] as? String } == ["live"])
            let holdings = try #require(answer["holdings"] as? [[String: Any]])
            let byCurrency = Dictionary(
                holdings.compactMap { row in (row["currency"] as? String).map { ($0, row) } },
                uniquingKeysWith: { a, _ in a }
            )
            // Won at face value (free and locked), as an exact decimal string.
            #expect(byCurrency["KRW"]?["quantity"] as? String == "1300000.5")
            #expect(answer["cash"] as? String == "1300000.5")
            // A coin with no KRW market keeps its row, unpriced.
            let drop = try #require(byCurrency["SISEDROP"])
            #expect(drop["price"] is NSNull && drop["market"] is NSNull)
            #expect((drop["display"] as? [String: Any])?["price"] as? String == AccountText.noMarket(.ko))
            // The coins are valued at the live Upbit board: value = quantity × price, exactly.
            let priced = holdings.filter { ($0["currency"] as? String).map { $0 != "KRW" && $0 != "SISEDROP" } ?? false }
            #expect(priced.count == 4, "\(holdings.map { $0["currency"] ?? "?" })")
            for row in priced {
                let quantity = try #require((row["quantity"] as? String).flatMap { Decimal(string: $0) })
                let price = try #require((row["price"] as? String).flatMap { Decimal(string: $0) })
                let value = try #require((row["value"] as? String).flatMap { Decimal(string: $0) })
                #expect(abs(NSDecimalNumber(decimal: value - quantity * price).doubleValue) <= 0.5, "\(row)")
            }
            let display = try #require(answer["display"] as? [String: Any])
            #expect((display["total"] as? String)?.hasPrefix("총 평가금액") == true)

            // Neither half of the key ever comes back out, nor sits in the store's file in the clear.
            var seen = ""
            for uri in ["/api/exchange-keys", "/api/portfolio/accounts", "/api/me", "/metrics", "/api/portfolio/export?format=csv"] {
                seen += String(buffer: try await client.execute(uri: uri, method: .get, headers: jar.pageHeaders).body)
            }
            seen += String(buffer: kept.body) + String(buffer: wrong.body)
            #expect(!seen.contains(Self.secret) && !seen.contains(Self.access))
            let directory = try #require(ServerHarness.lastDataDirectory.value)
            for file in (try? FileManager.default.subpathsOfDirectory(atPath: directory.path)) ?? [] {
                guard let bytes = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) else { continue }
                #expect(bytes.range(of: Data(Self.secret.utf8)) == nil && bytes.range(of: Data(Self.access.utf8)) == nil, "\(file)")
            }

            let removed = try await AccountsAPITests.post(client, "/api/exchange-keys/upbit", "", &jar, method: .delete)
            #expect(removed.status == .noContent)
            let again = try await AccountsAPITests.post(client, "/api/exchange-keys/upbit", "", &jar, method: .delete)
            #expect(again.status == .notFound)
            let empty = try #require(
                json(try await client.execute(uri: "/api/portfolio/accounts", method: .get, headers: jar.pageHeaders)) as? [String: Any]
            )
            #expect((empty["holdings"] as? [Any])?.isEmpty == true && (empty["sources"] as? [Any])?.isEmpty == true)
        }
    }

    /// A sync whose key lacks 주문조회 fails saying so, and the key's list notes what Upbit said.
    @Test func aSyncRefusedForAPermissionSaysSoAndMarksTheKey() async throws {
        try await AccountsAPITests.run { client in
            var jar = try await Self.signedUp(client)
            let status = try #require(json(try await client.execute(uri: "/api/status", method: .get)) as? [String: Any])
            let simulator = try #require((status["simulator"] as? String).flatMap(URL.init(string:)))
            let body =
                #"{"exchange":"upbit","access":"balances-only-key","secret":"balances-only-secret-0123","scopes":["balances"],"history":{"orders":5,"days":3}}"#
            let added = try await LiveHTTPTransport().post(
                simulator.appendingPathComponent("_sim/accounts"),
                headers: [("Content-Type", "application/json")],
                body: Data(body.utf8)
            )
            #expect(added.status == 200)
            let kept = try await Self.put(client, "upbit", access: "balances-only-key", secret: "balances-only-secret-0123", &jar)
            #expect(kept.status == .created, "balances read: the key is kept")
            let started = try await AccountsAPITests.post(client, "/api/portfolio/sync?lang=ko", "", &jar)
            #expect(started.status == .accepted)
            var state = ""
            var message = ""
            try await eventually("the sync ends") {
                let now = try #require(
                    json(try await client.execute(uri: "/api/portfolio/sync", method: .get, headers: jar.pageHeaders)) as? [String: Any]
                )
                state = now["state"] as? String ?? ""
                message = now["message"] as? String ?? ""
                return state == "failed" || state == "done"
            }
            #expect(state == "failed" && message.contains("조회 권한"), "\(state): \(message)")
            let keys = try #require(
                json(try await client.execute(uri: "/api/exchange-keys", method: .get, headers: jar.pageHeaders)) as? [String: Any]
            )
            #expect((keys["keys"] as? [[String: Any]])?.first?["problem"] as? String == "missingPermission")
        }
    }
}
