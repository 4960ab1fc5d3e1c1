import Foundation
import HTTPTypes
import HummingbirdTesting
import SiseCore
import SiseTestSupport
import Testing

/// Korbit and Bithumb beside Upbit on the API: `?exchange=` on the board routes (Upbit by
/// default), every exchange in `/api/status`, favorites per (exchange, market).
@Suite struct ExchangesAPITests {
    func rows(_ client: any TestClientProtocol, _ uri: String, headers: HTTPFields = [:]) async throws -> [[String: Any]] {
        var answer = try await client.execute(uri: uri, method: .get, headers: headers)
        // A board that has not loaded yet answers 503 for a moment.
        for _ in 0..<40 where answer.status == .serviceUnavailable {
            try await Task.sleep(for: .milliseconds(250))
            answer = try await client.execute(uri: uri, method: .get, headers: headers)
        }
        #expect(answer.status == .ok, "\(uri)")
        return json(answer) as? [[String: Any]] ?? []
    }

    @Test func everyExchangeHasItsBoard() async throws {
        try await ServerHarness.run { client in
            let korbit = try await rows(client, "/api/markets?exchange=korbit")
            #expect(korbit.count > 100 && korbit.allSatisfy { $0["exchange"] as? String == "korbit" })
            let btc = try #require(korbit.first { $0["market"] as? String == "KRW-BTC" })
            #expect(btc["koreanName"] as? String == "비트코인", "Korbit's nameless pairs borrow Upbit's names")
            let bithumb = try await rows(client, "/api/markets?exchange=bithumb&quote=BTC")
            #expect(
                !bithumb.isEmpty
                    && bithumb.allSatisfy { $0["exchange"] as? String == "bithumb" && ($0["market"] as? String)?.hasPrefix("BTC-") == true }
            )
            let upbit = try await rows(client, "/api/markets")
            #expect(upbit.allSatisfy { $0["exchange"] as? String == "upbit" }, "Upbit stays the default")
            let upbitBTC = try #require(upbit.first { $0["market"] as? String == "KRW-BTC" }?["price"] as? Double)
            let korbitBTC = try #require(btc["price"] as? Double)
            #expect(upbitBTC != korbitBTC && abs(upbitBTC - korbitBTC) / upbitBTC < 0.01, "the venues differ a little")

            let one = try await client.execute(uri: "/api/markets/KRW-ETH?exchange=bithumb", method: .get)
            #expect(one.status == .ok && (json(one) as? [String: Any])?["exchange"] as? String == "bithumb")
            let bad = try await client.execute(uri: "/api/markets?exchange=binance", method: .get)
            #expect(bad.status == .badRequest && errorCode(bad) == "bad_parameter")

            let status = try #require(json(try await client.execute(uri: "/api/status", method: .get)) as? [String: Any])
            #expect(Set((status["exchanges"] as? [String: Any])?.keys.map { $0 } ?? []) == Set(Exchange.allCases.map(\.rawValue)))
        }
    }

    @Test func favoritesArePerExchangeAndUpbitsKeepTheirForm() async throws {
        try await ServerHarness.run { client in
            _ = try await rows(client, "/api/markets?exchange=korbit")
            var jar = CookieJar()
            jar.take(try await client.execute(uri: "/api/favorites", method: .get))
            let korbit = try await client.execute(uri: "/api/favorites/KRW-BTC?exchange=korbit", method: .put, headers: jar.pageHeaders)
            #expect(korbit.status == .created)
            let change = try #require(json(korbit) as? [String: Any])
            #expect(change["item"] as? String == "korbit:KRW-BTC" && change["exchange"] as? String == "korbit")
            let upbit = try await client.execute(uri: "/api/favorites/KRW-BTC", method: .put, headers: jar.pageHeaders)
            #expect((json(upbit) as? [String: Any])?["item"] as? String == "KRW-BTC", "Upbit's favorites keep their form")
            let list = try #require(json(try await client.execute(uri: "/api/favorites", method: .get, headers: jar.pageHeaders)) as? [String: Any])
            #expect(Set(list["favorites"] as? [String] ?? []) == ["KRW-BTC", "korbit:KRW-BTC"])
            let onlyKorbit = try await rows(client, "/api/markets?exchange=korbit&favorites=true", headers: jar.pageHeaders)
            #expect(onlyKorbit.count == 1)
            // The page sends the key percent-encoded, as a path segment must be.
            _ = try await rows(client, "/api/markets?exchange=bithumb")
            let encoded = try await client.execute(uri: "/api/favorites/bithumb%3AKRW-ETH", method: .put, headers: jar.pageHeaders)
            #expect(encoded.status == .created && (json(encoded) as? [String: Any])?["item"] as? String == "bithumb:KRW-ETH")
            // A market Korbit does not list cannot be starred there.
            let missing = try await client.execute(uri: "/api/favorites/korbit:KRW-NOPE", method: .put, headers: jar.pageHeaders)
            #expect(missing.status == .notFound)
        }
    }
}

extension ExchangesAPITests {
    @Test func compareShowsTheLiveGapAcrossExchanges() async throws {
        try await ServerHarness.run { client in
            // The first compare wakes the other exchanges; a venue still loading is left out of
            // that answer and present in the next (the page asks every second).
            try await expectEventually(timeout: .seconds(15)) {
                let first = try await rows(client, "/api/compare?symbols=BTC&sort=symbol").first
                return (first?["prices"] as? [String: Double])?.count == Exchange.allCases.count
            }
            let some = try await rows(client, "/api/compare?symbols=BTC,ETH,XRP&sort=symbol")
            #expect(some.map { $0["symbol"] as? String } == ["BTC", "ETH", "XRP"])
            let btc = try #require(some.first)
            #expect((btc["prices"] as? [String: Double])?.count == Exchange.allCases.count)
            #expect((btc["stale"] as? [String: Bool])?.values.contains(true) == false)
            #expect((btc["gap"] as? Double ?? 0) > 0)
            #expect(((btc["display"] as? [String: Any])?["gap"] as? String)?.hasSuffix("%") == true)
            let all = try await rows(client, "/api/compare")
            let gaps = all.compactMap { $0["gap"] as? Double }
            #expect(all.count > 100 && gaps == gaps.sorted(by: >))
            let bad = try await client.execute(uri: "/api/compare?sort=random", method: .get)
            #expect(bad.status == .badRequest)
        }
    }
}
