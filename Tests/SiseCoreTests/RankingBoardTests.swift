import Foundation
import SiseCore
import Testing

/// The ranking's rules, decided once for every face: the rank window, 초성 search, the 3-state
/// sort with unknown figures last, which coin owns a Korean listing, the JSON row and the texts.
@Suite struct RankingBoardTests {
    static func coin(_ rank: Int, _ id: String, _ symbol: String, price: Double? = 100, change24h: Double? = 0) -> RankedCoin {
        RankedCoin(
            id: id,
            symbol: symbol,
            name: id.capitalized,
            rank: rank,
            price: price,
            change1h: 0.5,
            change24h: change24h,
            change7d: -2,
            marketCap: 1e12 / Double(rank),
            volume24h: 1e9
        )
    }

    static let coins = [
        coin(1, "bitcoin", "BTC", change24h: -1), coin(2, "ethereum", "ETH", change24h: 3), coin(3, "tether", "USDT", change24h: nil),
        coin(4, "solana", "SOL", change24h: 5), coin(5, "fake-bitcoin", "BTC", change24h: 40),
    ]
    static let listings = [
        "BTC": KoreanListing(exchange: .upbit, market: MarketID("KRW-BTC")!, koreanName: "비트코인"),
        "ETH": KoreanListing(exchange: .upbit, market: MarketID("KRW-ETH")!, koreanName: "이더리움"),
    ]

    @Test func aPageIsAWindowOfRanks() {
        let second = RankingBoard.page(Self.coins.shuffled(), page: 2, perPage: 2, currency: .krw)
        #expect(second.rows.map(\.coin.id) == ["tether", "solana"])
        #expect(RankingBoard.page(Self.coins, page: 9, perPage: 2, currency: .krw).rows.isEmpty)
        #expect(RankingBoard.blocksNeeded(page: 1, perPage: 100) == 1 && RankingBoard.blocksNeeded(page: 3, perPage: 100) == 2)
    }

    @Test func theBestRankedCoinOwnsASymbolsListing() {
        let rows = RankingBoard.page(Self.coins, page: 1, perPage: 5, currency: .krw, listings: Self.listings).rows
        #expect(rows.first { $0.coin.id == "bitcoin" }?.listing?.koreanName == "비트코인")
        #expect(rows.first { $0.coin.id == "fake-bitcoin" }?.listing == nil, "a look-alike ranked lower is not Upbit's BTC")
        #expect(rows[0].shownName(.ko) == "비트코인" && rows[0].shownName(.en) == "Bitcoin")
    }

    @Test func searchReadsKoreanNamesWithInitials() {
        let found = RankingBoard.page(Self.coins, page: 1, perPage: 5, currency: .krw, search: MarketSearch("ㅇㄷ"), listings: Self.listings)
        #expect(found.rows.map(\.coin.id) == ["ethereum"])
        #expect(RankingBoard.page(Self.coins, page: 1, perPage: 5, currency: .krw, search: MarketSearch("sol")).rows.map(\.coin.id) == ["solana"])
    }

    @Test func theSortCyclesAndUnknownFiguresGoLast() {
        var sort = RankingSort()
        sort = sort.tapping(.change24h)
        #expect(sort == RankingSort(key: .change24h, direction: .descending))
        let down = RankingBoard.page(Self.coins, page: 1, perPage: 5, currency: .krw, sort: sort)
        #expect(down.rows.map(\.coin.id) == ["fake-bitcoin", "solana", "ethereum", "bitcoin", "tether"])
        sort = sort.tapping(.change24h)
        let up = RankingBoard.page(Self.coins, page: 1, perPage: 5, currency: .krw, sort: sort)
        #expect(up.rows.map(\.coin.id) == ["bitcoin", "ethereum", "solana", "fake-bitcoin", "tether"])
        sort = sort.tapping(.change24h)
        #expect(sort.direction == .none)
        #expect(RankingBoard.page(Self.coins, page: 1, perPage: 5, currency: .krw, sort: sort).rows.map(\.coin.rank) == [1, 2, 3, 4, 5])
        #expect(down.next[.price] == RankingSort(key: .price, direction: .descending))
    }

    @Test func requestsAreCheckedOnce() throws {
        let asked = try RankingRequest(page: "2", perPage: "250", currency: "USD", sort: "marketcap", order: "asc", q: "비트")
        #expect(asked.page == 2 && asked.perPage == 250 && asked.currency == .usd && asked.blocks == 2)
        #expect(asked.sort == RankingSort(key: .marketCap, direction: .ascending))
        for (page, perPage, currency, parameter) in [
            ("0", "10", "krw", "page"), ("1", "251", "krw", "perPage"), ("x", "10", "krw", "page"),
            ("1", "10", "eur", "currency"), ("5", "250", "krw", "page"),
            ("\(Int.max)", "250", "krw", "page"),
        ] {
            #expect(throws: ParameterRefusal.self) { try RankingRequest(page: page, perPage: perPage, currency: currency) }
            do { _ = try RankingRequest(page: page, perPage: perPage, currency: currency) } catch { #expect(error.parameter.rawValue == parameter) }
        }
    }

    @Test func theRowSpeaksInFractionsAndTexts() throws {
        let row = RankingBoard.page(Self.coins, page: 1, perPage: 1, currency: .krw, listings: Self.listings, favorites: ["bitcoin"]).rows[0]
        #expect(row.favorite && row.display.changeRate24h == "-1.00%" && row.display.tone24h == "fall" && row.display.changeRate1h == "+0.50%")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(RankingRowJSON(row))) as? [String: Any])
        #expect(json["changeRate24h"] as? Double == -0.01 && json["koreanName"] as? String == "비트코인")
        #expect((json["listing"] as? [String: String]) == ["exchange": "upbit", "market": "KRW-BTC"])
        let unknown = RankingBoard.page(Self.coins, page: 3, perPage: 1, currency: .krw).rows[0]
        #expect(unknown.display.changeRate24h == "-")
    }

    @Test(arguments: [
        (2.0436e15, RankingCurrency.krw, Language.ko, "2,043.6조"), (3.456e11, .krw, .ko, "3,456억"), (5.5e7, .krw, .ko, "5,500만"),
        (1.234e12, .usd, .en, "$1.23T"), (4.567e11, .usd, .ko, "$456.70B"), (1.23e7, .usd, .en, "$12.30M"), (2.04e15, .krw, .en, "₩2,040.00T"),
    ])
    func bigSumsAreShort(_ value: Double, _ currency: RankingCurrency, _ language: Language, _ text: String) {
        #expect(MarketFormatter(language: language).compactMoney(value, currency: currency) == text)
    }
}
