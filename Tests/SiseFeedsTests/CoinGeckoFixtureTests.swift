import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// Every real CoinGecko file decodes (string-typed numbers, three error shapes, old layouts).
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct CoinGeckoFixtureTests {
    /// Serves a fixture's bytes as if CoinGecko had answered them, whatever the path.
    static func FixtureTransport(status: Int, name: String, headers: [String: String] = [:]) -> StubTransport {
        StubTransport(["": { _ in HTTPResponseData(status: status, headers: headers, body: try RealFixtures.data(name)) }])
    }

    func client(_ name: String, status: Int = 200, headers: [String: String] = [:]) -> CoinGeckoClient {
        CoinGeckoClient(transport: Self.FixtureTransport(status: status, name: name, headers: headers))
    }

    @Test func trendingWithStringTypedFields() async throws {
        let trending = try await client("coingecko-trending.json").trending(krwPerUSD: 1_400)
        #expect(trending.coins.count == 15)
        #expect(trending.nfts.count == 7)
        let first = trending.coins[0]
        #expect(first.id == "qubic-network" && first.rank == 1 && first.marketCapRank == 368)
        #expect(first.priceUSD == 9.04766669820536e-07)
        #expect(first.priceKRW == 9.04766669820536e-07 * 1_400)
        #expect(first.change24h == -6.052787254104821)
        #expect(trending.coins.map(\.rank) == Array(1...15))
        let nft = trending.nfts[0]
        #expect(nft.id == "runestone" && nft.floorPrice == 0.00168 && nft.floorPriceCurrency == "BTC")
        #expect(nft.floorPriceChange24h == -7.340129332743706)
        let noRate = try await client("coingecko-trending.json").trending(krwPerUSD: nil)
        #expect(noRate.coins.allSatisfy { $0.priceKRW == nil })
    }

    @Test func olderAndDocsTrendingShapes() async throws {
        let old = try await client("coingecko-trending-2023-coins-only.json").trending(krwPerUSD: nil)
        #expect(!old.coins.isEmpty && old.nfts.isEmpty)
        #expect(old.coins[0].id == "bonk")
        let docs = try await client("coingecko-trending-docs-example.json").trending(krwPerUSD: 1_300)
        #expect(docs.coins.count == 2 && docs.nfts.count == 2)
    }

    @Test func searchWithIntOrStringCategoryIDs() async throws {
        let results = try await client("coingecko-search-2023.json").search("bit")
        #expect(results.coins.count == 25 && results.exchanges.count == 25 && results.nfts.count == 94)
        #expect(
            results.coins[0]
                == SearchHit(
                    id: "bitcoin",
                    name: "Bitcoin",
                    symbol: "BTC",
                    marketCapRank: 1,
                    thumb: "https://assets.coingecko.com/coins/images/1/thumb/bitcoin.png"
                )
        )
        #expect(results.exchanges[0].id == "binance" && results.exchanges[0].symbol == nil)
        let docs = try await client("coingecko-search-docs-example.json").search("eth")
        #expect(!docs.coins.isEmpty)
    }

    @Test func exchangeRatesGiveKRWPerUSD() async throws {
        let rate = try await client("coingecko-exchange-rates.json").krwPerUSD()
        #expect(abs(rate - 55_024_642.656 / 41_819.856) < 1e-6)
    }

    @Test func marketsAndCharts() async throws {
        // The fixture is one element; the endpoint answers an array.
        let element = try RealFixtures.data("coingecko-markets-element-sparkline-2026.json")
        let rows = try JSONDecoder().decode([CoinGeckoMarketDTO].self, from: Data("[".utf8) + element + Data("]".utf8))
        #expect(rows[0].sparkline_in_7d?.price?.count == 168)
        #expect(rows[0].ath_date == "2025-10-06T18:57:42.558Z")
        let many = try JSONDecoder().decode([CoinGeckoMarketDTO].self, from: try RealFixtures.data("coingecko-markets-2023.json"))
        #expect(many.count == 100)
        #expect(many.contains { $0.current_price == 6.31917e-07 })
        let chart = try await client("coingecko-market-chart-alephium-btc.json").chart(id: "alephium", days: 7)
        #expect(chart.count == 6)
        #expect(chart[0] == PricePoint(time: 1_702_080_000_000, price: 1.6446899669484214e-05))
        #expect(chart.last?.time == 1_702_476_909_000)
    }

    @Test func errorShapesAreTyped() async throws {
        await #expect(throws: FeedError.rateLimited(retryAfter: .seconds(53))) {
            _ = try await client("coingecko-error-429.json", status: 429, headers: ["retry-after": "53"]).search("x")
        }
        // The rate-limit body sometimes comes with HTTP 200.
        await #expect(throws: FeedError.rateLimited(retryAfter: .seconds(60))) {
            _ = try await client("coingecko-error-429.json", status: 200).search("x")
        }
    }

    @Test func everyFileDecodesAsJSON() throws {
        for name in RealFixtures.names(prefix: "coingecko-") {
            #expect((try? JSONSerialization.jsonObject(with: RealFixtures.data(name))) != nil, "\(name)")
        }
        let ping = try JSONSerialization.jsonObject(with: RealFixtures.data("coingecko-ping.json")) as? [String: String]
        #expect(ping?["gecko_says"] != nil)
    }
}

@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct CoinGeckoDetailFixtureTests {
    @Test func coinDetailAndSimplePrice() async throws {
        let coin = try await CoinGeckoClient(
            transport: CoinGeckoFixtureTests.FixtureTransport(status: 200, name: "coingecko-coin-bitcoin-docs-example.json")
        )
        .coin(id: "bitcoin")
        #expect(coin.id == "bitcoin" && coin.symbol == "BTC" && coin.marketCapRank == 1)
        #expect(coin.price == 94_372_079 && coin.allTimeHigh == 97_195_531)
        #expect(coin.allTimeHighDate == "2024-03-14T07:10:36.635Z")
        let prices = try await CoinGeckoClient(
            transport: CoinGeckoFixtureTests.FixtureTransport(status: 200, name: "coingecko-simple-price-docs-example.json")
        )
        .simplePrice(ids: ["bitcoin"])
        #expect(
            prices == [
                SimplePrice(id: "bitcoin", prices: ["usd": 67187.3358936566], change24h: ["usd": 3.63727894677354], lastUpdatedAt: 1_711_356_300)
            ]
        )
    }
}

/// The key travels in the header of its plan, never in the URL.
@Suite struct CoinGeckoKeyTests {
    final class Capture: HTTPTransport, @unchecked Sendable {
        // @unchecked: one request at a time in this test.
        var headers: [(String, String)] = []
        var url: URL?
        func get(_ url: URL, headers: [(String, String)]) async throws -> HTTPResponseData {
            self.url = url
            self.headers = headers
            return HTTPResponseData(status: 200, headers: [:], body: Data(#"{"rates":{"krw":{"value":2},"usd":{"value":1}}}"#.utf8))
        }

        func post(_ url: URL, headers: [(String, String)], body: Data) async throws -> HTTPResponseData {
            try await get(url, headers: headers)
        }
    }

    @Test(arguments: [(CoinGeckoPlan.demo, "x-cg-demo-api-key"), (.pro, "x-cg-pro-api-key")])
    func keyHeaderFollowsThePlan(_ plan: CoinGeckoPlan, _ header: String) async throws {
        let capture = Capture()
        let client = CoinGeckoClient(configuration: .init(key: "secret", plan: plan), transport: capture)
        #expect(try await client.krwPerUSD() == 2)
        #expect(capture.headers.map(\.0) == [header] && capture.headers.first?.1 == "secret")
        #expect(capture.url?.absoluteString.contains("secret") == false)
        #expect(capture.url?.absoluteString == "https://api.coingecko.com/api/v3/exchange_rates")
    }
}

/// The transport double refuses what was not stubbed, so a client calling the wrong endpoint
/// fails its test.
@Suite struct StubTransportTests {
    @Test func anUnstubbedPathFails() async throws {
        let transport = StubTransport()
        transport.stub("/search/trending", body: Data(#"{"coins":[],"nfts":[]}"#.utf8))
        let client = CoinGeckoClient(transport: transport)
        _ = try await client.trending(krwPerUSD: nil)
        await withKnownIssue {
            _ = try await client.search("bit")
        }
        #expect(transport.requests.count == 2)
    }
}
