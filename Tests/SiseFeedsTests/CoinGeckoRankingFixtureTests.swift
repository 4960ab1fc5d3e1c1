import Foundation
import SiseCore
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// The ranking decodes from CoinGecko's real `/coins/markets` answers: a 2023 page of 100
/// (nulls, tiny prices, no 1h/7d fields) and a 2026 row with its 168-point sparkline.
@Suite(.enabled(if: RealFixtures.available, Comment(rawValue: RealFixtures.skipReason)))
struct CoinGeckoRankingFixtureTests {
    func client(_ body: Data) -> CoinGeckoClient {
        CoinGeckoClient(transport: StubTransport(["": { _ in HTTPResponseData(status: 200, headers: [:], body: body) }]))
    }

    @Test func aRealPageOfAHundred() async throws {
        let coins = try await client(try RealFixtures.data("coingecko-markets-2023.json")).ranking(currency: .usd, page: 1, perPage: 100)
        #expect(coins.count == 100)
        #expect(coins[0].id == "bitcoin" && coins[0].symbol == "BTC" && coins[0].rank == 1 && coins[0].price == 16_951.52)
        #expect(coins[0].changeRate(.day) == 0.0014088, "percent becomes a fraction")
        #expect(coins[0].change1h == nil && coins[0].change7d == nil, "periods not asked for are unknown, not zero")
        let tiny = try #require(coins.first { $0.id == "bittorrent" })
        #expect(tiny.price == 6.31917e-07)
        #expect(MarketFormatter(language: .en).price(tiny.price ?? 0, currency: .usd) == "$0.0000006319", "four significant digits below a cent")
        let page = RankingBoard.page(coins, page: 1, perPage: 10, currency: .usd)
        #expect(page.rows.map { $0.coin.rank } == Array(1...10).map(Optional.init))
    }

    @Test func aRealRowWithItsSparkline() async throws {
        let element = try RealFixtures.data("coingecko-markets-element-sparkline-2026.json")
        let coins = try await client(Data("[".utf8) + element + Data("]".utf8)).ranking(currency: .usd, page: 1, perPage: 250)
        let bitcoin = try #require(coins.first)
        #expect(bitcoin.sparkline.count == 168 && bitcoin.price == 67_291)
        #expect(bitcoin.change24h == -0.32893435567952206, "the _in_currency figure wins")
        let json = try JSONSerialization.jsonObject(
            with: JSONEncoder().encode(
                RankingRowJSON(
                    RankingBoard.page(
                        coins,
                        page: 1,
                        perPage: 1,
                        currency: .usd
                    ).rows[0]
                )
            )
        )
        let row = try #require(json as? [String: Any])
        for key in [
            "rank", "id", "symbol", "name", "koreanName", "price", "changeRate1h", "changeRate24h", "changeRate7d", "marketCap",
            "volume24h", "currency",
        ] {
            #expect(row.keys.contains(key), "\(key)")
        }
        #expect(row["koreanName"] is NSNull && row["currency"] as? String == "usd")
    }

    @Test func theGlobalMarketOfOurOwnFixture() async throws {
        // A body in `/global`'s documented shape (written here, with a missing figure).
        let body = Data(
            #"""
            {"data":{"active_cryptocurrencies":17505,"upcoming_icos":0,"ongoing_icos":49,"ended_icos":3376,"markets":1299,
             "total_market_cap":{"btc":40371425.0,"krw":4.61e15,"usd":3.12e12},"total_volume":{"krw":1.6e14,"usd":1.1e11},
             "market_cap_percentage":{"btc":58.2,"eth":9.1,"usdt":5.3},"market_cap_change_percentage_24h_usd":-1.25,"updated_at":1763800000}}
            """#.utf8
        )
        let global = try await client(body).global()
        #expect(global.totalMarketCap["krw"] == 4.61e15 && global.dominance["btc"] == 58.2 && global.activeCryptocurrencies == 17_505)
        let view = GlobalMarketJSON(global, currency: .krw, language: .ko)
        #expect(abs((view.btcDominance ?? 0) - 0.582) < 1e-12 && abs((view.marketCapChange24h ?? 0) + 0.0125) < 1e-12)
        #expect(view.display["totalMarketCap"] == "4,610.0조" && view.display["btcDominance"] == "58.20%")
        #expect(GlobalMarketJSON(global, currency: .usd, language: .en).display["totalMarketCap"] == "$3.12T")
    }
}
