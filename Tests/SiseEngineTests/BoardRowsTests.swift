import SiseCore
import Testing

@testable import SiseEngine

/// A board's rows between flushes, as a value: which tickers become news, which only confirm a
/// row fresh, and what a listing change does — no actor, no clock.
@Suite struct BoardRowsTests {
    static let btc = MarketID("KRW-BTC")!
    static let eth = MarketID("KRW-ETH")!
    static let usdtBTC = MarketID("USDT-BTC")!

    static func ticker(_ id: MarketID, _ price: Double, at: Int64) -> Ticker {
        Ticker(market: id, price: price, change: .even, signedChangePrice: 0, signedChangeRate: 0, tradeTimestamp: at, timestamp: at)
    }

    static func market(_ id: MarketID, warning: Bool = false) -> Market {
        Market(id: id, koreanName: id.base, englishName: id.base, warning: warning)
    }

    func listed() -> BoardRows {
        var rows = BoardRows(exchange: .bithumb, quotes: [.krw])
        rows.install(listing: [Self.market(Self.btc), Self.market(Self.eth), Self.market(Self.usdtBTC)], tickSizes: [:], at: 0)
        return rows
    }

    @Test func aNewPriceIsNewsTheSameFiguresOnlyFreshAndAnOlderTickerNothing() {
        var rows = listed()
        #expect(rows.subscribed == [Self.btc, Self.eth], "the board's quotes only")
        rows.apply(Self.ticker(Self.btc, 100, at: 10), at: 1_000)
        var flush = rows.take()
        #expect(flush.changed.map(\.id) == [Self.btc] && flush.news && flush.changed.first?.exchange == .bithumb)
        #expect(!rows.pending, "taken once")
        // The same figures, stamped later: fresh, told to nobody.
        rows.apply(Self.ticker(Self.btc, 100, at: 20), at: 2_000)
        flush = rows.take()
        #expect(flush.changed.isEmpty && flush.confirmed.map(\.id) == [Self.btc] && !flush.news)
        #expect(flush.arrivals == [Self.btc: 2_000] && rows.lastDataAt == 2_000)
        // An older ticker than the row's is dropped.
        rows.apply(Self.ticker(Self.btc, 90, at: 5), at: 3_000)
        #expect(!rows.pending && rows.rows[Self.btc]?.ticker.price == 100)
        #expect(rows.applied == 2)
    }

    @Test func aTickerBeforeItsListingWaitsAndADelistingIsNews() {
        var rows = BoardRows(exchange: .upbit, quotes: [.krw])
        rows.apply(Self.ticker(Self.btc, 100, at: 10), at: 1_000)
        #expect(!rows.pending && rows.rows.isEmpty, "not listed yet")
        rows.install(listing: [Self.market(Self.btc)], tickSizes: [Self.btc: 1_000], at: 1_500)
        var flush = rows.take()
        #expect(flush.changed.map(\.id) == [Self.btc] && flush.arrivals == [Self.btc: 1_500])
        #expect(flush.changed.first?.tickSize == 1_000)
        // A flag set on the listing is news; the market gone from it is too.
        rows.install(listing: [Self.market(Self.btc, warning: true)], tickSizes: [:], at: 2_000)
        flush = rows.take()
        #expect(flush.changed.first?.market.warning == true)
        rows.install(listing: [], tickSizes: [:], at: 3_000)
        flush = rows.take()
        #expect(flush.gone == [Self.btc] && flush.news && rows.rows.isEmpty)
    }
}
