import SiseCore
import SiseTestSupport
import Testing

@Suite struct SortTests {
    static func row(_ base: String, _ korean: String, price: Double, rate: Double, value: Double) -> MarketRow {
        let id = MarketID(quote: "KRW", base: base)
        return MarketRow(
            market: Market(id: id, koreanName: korean, englishName: base),
            ticker: Ticker(
                market: id,
                price: price,
                change: PriceChange(signed: rate),
                signedChangePrice: price * rate,
                signedChangeRate: rate,
                tradeValue24h: value
            ),
            exchange: .upbit
        )
    }

    let rows = [
        row("BTC", "비트코인", price: 103_493_000, rate: 0.0105, value: 162_997_000_000),
        row("ETH", "이더리움", price: 3_050_000, rate: -0.0032, value: 90_000_000_000),
        row("XRP", "엑스알피", price: 2_045, rate: 0.0105, value: 90_000_000_000),
        row("ADA", "에이다", price: 390, rate: 0, value: 5_000_000),
        row("DOGE", "도지코인", price: 140, rate: 0.0105, value: 5_000_000),
    ]

    @Test func headerTapsWalkNoneDescendingAscendingNone() {
        var state = SortState.default
        #expect(state.direction(of: .price) == .none)
        state = state.tapping(.price)
        #expect(state == SortState(key: .price, direction: .descending))
        state = state.tapping(.price)
        #expect(state == SortState(key: .price, direction: .ascending))
        state = state.tapping(.price)
        #expect(state.direction == .none)
        #expect(state.tapping(.price).direction == .descending)
    }

    @Test func tappingAnotherColumnStartsItDescending() {
        let state = SortState.default.tapping(.name).tapping(.price)
        #expect(state == SortState(key: .price, direction: .descending))
        #expect(state.direction(of: .name) == .none)
    }

    /// Names read 가나다 from the first tap (the board's first tap on 한글명 started at ㅎ), then the
    /// reverse, then the default order.
    @Test func theNameColumnStartsAscending() {
        var state = SortState.default.tapping(.price).tapping(.price).tapping(.name)
        #expect(state == SortState(key: .name, direction: .ascending))
        #expect(state.direction(of: .price) == .none)
        state = state.tapping(.name)
        #expect(state == SortState(key: .name, direction: .descending))
        state = state.tapping(.name)
        #expect(state.direction == .none)
        #expect(state.tapping(.name).direction == .ascending)
    }

    @Test func noneMeansTradeValueDescendingWithNameTiebreak() {
        let sorted = MarketSorter.sorted(rows, by: .default).map(\.market.symbol)
        // ETH and XRP trade the same value: 엑스알피 sorts before 이더리움 (가나다 order).
        #expect(sorted == ["BTC", "XRP", "ETH", "DOGE", "ADA"])
        let afterCycle = SortState.default.tapping(.change).tapping(.change).tapping(.change)
        #expect(MarketSorter.sorted(rows, by: afterCycle).map(\.market.symbol) == sorted)
    }

    @Test func equalRatesKeepNameOrderInBothDirections() {
        let down = MarketSorter.sorted(rows, by: SortState(key: .change, direction: .descending)).map(\.market.symbol)
        #expect(down == ["DOGE", "BTC", "XRP", "ADA", "ETH"])
        let up = MarketSorter.sorted(rows, by: SortState(key: .change, direction: .ascending)).map(\.market.symbol)
        #expect(up == ["ETH", "ADA", "DOGE", "BTC", "XRP"])
    }

    @Test func sortingIsStableAcrossShuffledInput() {
        let state = SortState(key: .change, direction: .descending)
        let expected = MarketSorter.sorted(rows, by: state).map(\.id)
        for seed in 0..<20 {
            var generator = SeededGenerator(seed: UInt64(seed))
            #expect(MarketSorter.sorted(rows.shuffled(using: &generator), by: state).map(\.id) == expected)
        }
    }

    @Test func nameSortUsesTheShownLanguage() {
        let ko = MarketSorter.sorted(rows, by: SortState(key: .name, direction: .ascending), language: .ko)
        #expect(ko.map(\.market.koreanName) == ["도지코인", "비트코인", "에이다", "엑스알피", "이더리움"])
        let en = MarketSorter.sorted(rows, by: SortState(key: .name, direction: .ascending), language: .en)
        #expect(en.map(\.market.symbol) == ["ADA", "BTC", "DOGE", "ETH", "XRP"])
    }

    @Test func bigBoardsFullOfTiesHaveOneOrder() {
        let names = ["비트코인", "이더리움", "Alpha", "alpha", "에이다"]
        let board = (0..<300).map { index in
            SortTests.row(
                "C\(index)",
                names[index % names.count],
                price: Double(index % 7),
                rate: [-0.01, 0, 0.01][index % 3],
                value: Double(index % 4)
            )
        }
        for key in [SortKey.change, .price, .value, .name] {
            for direction in [SortDirection.descending, .ascending] {
                let state = SortState(key: key, direction: direction)
                let expected = MarketSorter.sorted(board, by: state).map(\.id)
                #expect(Set(expected).count == board.count)
                var generator = SeededGenerator(seed: 7)
                #expect(MarketSorter.sorted(board.shuffled(using: &generator), by: state).map(\.id) == expected, "\(state)")
            }
        }
        let down = MarketSorter.sorted(board, by: SortState(key: .change, direction: .descending))
        for (upper, lower) in zip(down, down.dropFirst()) {
            #expect(upper.ticker.signedChangeRate >= lower.ticker.signedChangeRate)
            if upper.ticker.signedChangeRate == lower.ticker.signedChangeRate && upper.market.koreanName == lower.market.koreanName {
                #expect(upper.id.code < lower.id.code)
            }
        }
    }

    @Test func priceSortOrdersByPrice() {
        let sorted = MarketSorter.sorted(rows, by: SortState(key: .price, direction: .ascending)).map(\.market.symbol)
        #expect(sorted == ["DOGE", "ADA", "XRP", "ETH", "BTC"])
    }
}

@Suite struct BoardQueryTests {
    @Test func quoteSearchFavoritesAndSortCombine() {
        let rows =
            SortTests().rows
            + [SortTests.row("ETH", "이더리움", price: 1, rate: 0, value: 1)].map { row in
                var r = row
                r = MarketRow(
                    market: Market(id: MarketID("BTC-ETH")!, koreanName: "이더리움", englishName: "Ethereum"),
                    ticker: Ticker(
                        market: MarketID("BTC-ETH")!,
                        price: 0.03,
                        change: .even,
                        signedChangePrice: 0,
                        signedChangeRate: 0,
                        tradeValue24h: 10
                    ),
                    exchange: .upbit
                )
                return r
            }
        #expect(BoardQuery().apply(rows).map(\.id.code) == ["KRW-BTC", "KRW-XRP", "KRW-ETH", "KRW-DOGE", "KRW-ADA"])
        #expect(BoardQuery(quote: .btc).apply(rows).map(\.id.code) == ["BTC-ETH"])
        #expect(BoardQuery(search: "ㅇㄷㄹ").apply(rows).map(\.id.code) == ["KRW-ETH"])
        #expect(BoardQuery(search: "ㅇㄷ").apply(rows).map(\.id.code) == ["KRW-ETH", "KRW-ADA"], "에이다 has ㅇㄷ too")
        let favorites: Set<MarketID> = [MarketID("KRW-ADA")!, MarketID("KRW-BTC")!]
        #expect(
            BoardQuery(sort: SortState(key: .price, direction: .ascending), favorites: favorites).apply(rows).map(\.id.code)
                == ["KRW-ADA", "KRW-BTC"]
        )
        #expect(BoardQuery(favorites: []).apply(rows).isEmpty)
    }
}
