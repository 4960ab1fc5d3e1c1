import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import Testing

/// `GET /api/ranking` and `GET /api/global` on the demo simulator: the public row keys with
/// fractions, Korean names and board links from the live board, stars by CoinGecko id, bad
/// parameters named, and two hundred viewers costing one upstream call.
@Suite struct RankingAPITests {
    @Test func rowsGlobalStarsAndErrors() async throws {
        try await ServerHarness.run { client in
            let jar = try await AccountsAPITests.fresh(client)
            _ = try await client.execute(uri: "/api/favorites/ethereum", method: .put, headers: jar.pageHeaders)
            let answer = try await client.execute(uri: "/api/ranking?perPage=20", method: .get, headers: jar.pageHeaders)
            #expect(answer.status == .ok)
            let body = try #require(json(answer) as? [String: Any])
            let rows = try #require(body["rows"] as? [[String: Any]])
            #expect(rows.count == 20 && body["stale"] as? Bool == false && body["page"] as? Int == 1)
            let first = rows[0]
            #expect(first["rank"] as? Int == 1 && first["id"] as? String == "bitcoin" && first["koreanName"] as? String == "비트코인")
            #expect((first["listing"] as? [String: String])?["market"] == "KRW-BTC")
            #expect(first.keys.contains("premium"), "its kimchi premium (a number once Binance has been heard)")
            let rate = try #require(first["changeRate24h"] as? Double)
            #expect(abs(rate) < 1, "a fraction, not percent")
            #expect((first["sparkline"] as? String)?.hasPrefix("<svg") == true)
            #expect(rows.first { $0["id"] as? String == "ethereum" }?["favorite"] as? Bool == true)
            let usd = try #require(json(try await client.execute(uri: "/api/ranking?perPage=1&currency=usd", method: .get)) as? [String: Any])
            let usdRow = try #require((usd["rows"] as? [[String: Any]])?.first)
            let usdPrice = (usdRow["display"] as? [String: String])?["price"]
            #expect(usdRow["currency"] as? String == "usd" && usdPrice?.hasPrefix("$") == true)
            let sorted = try #require(
                json(try await client.execute(uri: "/api/ranking?perPage=50&sort=change24h&order=desc", method: .get)) as? [String: Any]
            )
            let changes = (sorted["rows"] as? [[String: Any]] ?? []).compactMap { $0["changeRate24h"] as? Double }
            #expect(changes.count == 50 && changes == changes.sorted(by: >))
            for bad in ["page=0", "perPage=500", "currency=eur", "sort=colour", "page=11&perPage=100"] {
                let refused = try await client.execute(uri: "/api/ranking?" + bad, method: .get)
                #expect(refused.status == .badRequest && errorCode(refused) == "bad_parameter", "\(bad)")
            }
            let global = try #require(json(try await client.execute(uri: "/api/global", method: .get)) as? [String: Any])
            #expect((global["btcDominance"] as? Double).map { $0 > 0 && $0 < 1 } == true)
            let total = (global["display"] as? [String: String])?["totalMarketCap"]
            #expect(total?.hasSuffix("조") == true)
            #expect(try await client.execute(uri: "/api/global?currency=eur", method: .get).status == .badRequest)
        }
    }

    @Test func twoHundredViewersCostOneUpstreamCall() async throws {
        try await ServerHarness.run { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<200 { group.addTask { try await client.execute(uri: "/api/ranking?perPage=2", method: .get).status } }
                for try await status in group { #expect(status == .ok) }
            }
            let status = try #require(json(try await client.execute(uri: "/api/status", method: .get)) as? [String: Any])
            let simulator = try #require((status["simulator"] as? String).flatMap(URL.init(string:)))
            let answer = try await SocialLoginTests.browser.get(simulator.appendingPathComponent("_sim/stats"), headers: [])
            let stats = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: [String: Any]])
            // One call for the two hundred KRW viewers; the premium feed's USD ranking may add one.
            let calls = try #require(stats["coingecko"]?["/coins/markets"] as? Int)
            #expect(calls >= 1 && calls <= 2, "\(calls) upstream calls")
        }
    }
}
