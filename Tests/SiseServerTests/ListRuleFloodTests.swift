import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseTestSupport
import Testing

/// One owner floods: every Upbit market starred, indicator rules on the whole list, each market's
/// candles to be seeded upstream. Another owner's `POST /api/alerts` still answers at once, its own
/// indicator rule is seeded before the flood's hundreds (owners take turns), the flood's rules say
/// "preparing" until their candles came, and a rule that would take the flood past
/// `AlertBook.pairsPerOwner` rule × market pairs is refused in words.
@Suite(.serialized) struct ListRuleFloodTests {
    @Test func anotherOwnerIsAnsweredAtOnceWhileOneOwnerFloods() async throws {
        let unlimited: (inout ServerConfiguration) -> Void = { $0.favoriteWritesPerMinute = 0 }
        try await ServerHarness.run(configure: unlimited) { client in
            let (flood, floodJSON) = try await CookieJar.visitor(client)
            let (calm, calmJSON) = try await CookieJar.visitor(client)
            var markets: [String] = []
            for quote in ["KRW", "BTC", "USDT"] {
                let rows = json(try await client.execute(uri: "/api/markets?quote=\(quote)", method: .get)) as? [[String: Any]] ?? []
                markets += rows.compactMap { $0["market"] as? String }
            }
            markets = Array(markets.prefix(440))
            #expect(markets.count >= 100, "the demo's Upbit lists \(markets.count) markets")
            for market in markets {
                let starred = try await client.execute(uri: "/api/favorites/\(market)", method: .put, headers: flood.pageHeaders)
                #expect(starred.status == .ok || starred.status == .created, "\(market): \(starred.status)")
            }
            func post(_ headers: HTTPFields, _ body: String) async throws -> (TestResponse, Double) {
                let start = ContinuousClock.now
                let response = try await client.execute(uri: "/api/alerts", method: .post, headers: headers, body: ByteBuffer(string: body))
                let elapsed = ContinuousClock.now - start
                return (response, Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
            }
            // As many wide rules as the bound takes: each watches every starred market.
            let fits = 2_000 / markets.count
            for fast in 1...fits {
                let (response, _) = try await post(
                    floodJSON,
                    #"{"exchange":"upbit","market":"favorites","type":"indicator","indicator":"maCrossUp","interval":"1m","fast":\#(fast),"slow":120}"#
                )
                #expect(response.status == .created, "\(fast): \(String(buffer: response.body))")
                #expect((json(response) as? [String: Any])?["preparing"] as? Bool == true, "a new indicator rule says it is preparing")
            }
            // One more would pass the bound: refused, saying the bound and the count.
            let (over, _) = try await post(
                floodJSON,
                #"{"exchange":"upbit","market":"favorites","type":"indicator","indicator":"maCrossUp","interval":"1m","fast":\#(fits + 1),"slow":120}"#
            )
            #expect(over.status == .badRequest)
            let words = ((json(over) as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(words.contains("2,000"), "\(words)")
            // While the flood's hundreds of series wait for candles, the other owner is answered at once.
            var waits: [Double] = []
            for index in 0..<5 {
                let (response, ms) = try await post(
                    calmJSON,
                    #"{"exchange":"upbit","market":"\#(markets[index])","type":"above","price":"999999999999"}"#
                )
                #expect(response.status == .created)
                waits.append(ms)
            }
            let median = waits.sorted()[waits.count / 2]
            #expect(median <= 200, "another owner's POST /api/alerts took \(waits.map { Int($0) }) ms")
            // Its own indicator rule is seeded before the flood's (owners take turns).
            let (mine, _) = try await post(
                calmJSON,
                #"{"exchange":"upbit","market":"\#(markets[markets.count - 1])","type":"indicator","indicator":"rsiAbove","level":70,"interval":"1m"}"#
            )
            let id = try #require((json(mine) as? [String: Any])?["id"] as? String)
            var floodPreparing = true
            try await expectEventually(timeout: .seconds(20), "the other owner's indicator rule was seeded") {
                let list = json(try await client.execute(uri: "/api/alerts", method: .get, headers: calm.pageHeaders)) as? [String: Any]
                let rule = (list?["alerts"] as? [[String: Any]])?.first { $0["id"] as? String == id }
                guard rule?["preparing"] as? Bool == false else { return false }
                let theirs = json(try await client.execute(uri: "/api/alerts", method: .get, headers: flood.pageHeaders)) as? [String: Any]
                floodPreparing = (theirs?["alerts"] as? [[String: Any]])?.contains { $0["preparing"] as? Bool == true } ?? false
                return true
            }
            #expect(floodPreparing, "…while the flood's rules still wait their turn")
        }
    }
}
