import SiseCore
import SiseEngine
import Testing

/// The coin page's figures as a Korean reader expects them: a market cap in 조/억 (Upbit writes
/// `1,706조`, never `1,706,086,402백만`), and a 52-week high whose label already says 52주.
@Suite struct CoinFiguresTextTests {
    @Test func aMarketCapIsWrittenInJoAndEok() {
        let bitcoin = CoinMarket(id: "bitcoin", symbol: "btc", name: "Bitcoin", marketCap: 1_706_086_402_000_000, marketCapRank: 1)
        #expect(CoinDetail.marketCapText(bitcoin, MarketFormatter(language: .ko)) == "1,706.1조 (#1)")
        #expect(CoinDetail.marketCapText(bitcoin, MarketFormatter(language: .en)) == "₩1,706.09T (#1)")
        let small = CoinMarket(id: "x", symbol: "x", name: "X", marketCap: 52_300_000_000)
        #expect(CoinDetail.marketCapText(small, MarketFormatter(language: .ko)) == "523억")
    }

    @Test func the52WeekFiguresCarryTheirDateNotAnEnglishTag() {
        let id = MarketID(quote: "KRW", base: "BTC")
        let ticker = Ticker(
            market: id,
            price: 100_000_000,
            change: .even,
            signedChangePrice: 0,
            signedChangeRate: 0,
            tradeValue24h: 1e9,
            highest52WeekPrice: 150_000_000,
            highest52WeekDate: "2026-03-14",
            lowest52WeekPrice: 60_000_000,
            lowest52WeekDate: nil
        )
        let figures = MarketFigures(
            MarketRow(market: Market(id: id, koreanName: "비트코인", englishName: "Bitcoin"), ticker: ticker, exchange: .upbit),
            formatter: MarketFormatter(language: .ko)
        )
        #expect(figures.high52w == "150,000,000 (2026-03-14)")
        #expect(figures.low52w == "60,000,000")
        #expect(!figures.lines(.ko).contains { $0.value.contains("52w") })
    }
}
