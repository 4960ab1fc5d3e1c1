import Foundation
import SiseCore
import Testing

/// The cross-exchange board's rule, on hand-worked numbers.
@Suite struct CompareBoardTests {
    static func row(_ code: String, _ price: Double, _ exchange: Exchange, name: String = "") -> MarketRow {
        let id = MarketID(code)!
        return MarketRow(
            market: Market(id: id, koreanName: name, englishName: id.base),
            ticker: Ticker(market: id, price: price, change: .even, signedChangePrice: 0, signedChangeRate: 0, tradeValue24h: 1),
            exchange: exchange
        )
    }

    @Test func gapIsMaxMinusMinOverMinAcrossCurrentVenues() throws {
        let venues: [Exchange: CompareBoard.Venue] = [
            .upbit: .init(rows: [Self.row("KRW-BTC", 100_000_000, .upbit, name: "비트코인"), Self.row("KRW-ONLY", 10, .upbit)], stale: false),
            .korbit: .init(rows: [Self.row("KRW-BTC", 100_300_000, .korbit)], stale: false),
            .bithumb: .init(rows: [Self.row("KRW-BTC", 99_800_000, .bithumb), Self.row("BTC-ETH", 0.05, .bithumb)], stale: false),
        ]
        let rows = CompareBoard.rows(venues)
        #expect(rows.map(\.symbol) == ["BTC"], "listed on one venue only, or not in KRW: not compared")
        let btc = try #require(rows.first)
        #expect(btc.koreanName == "비트코인")
        #expect(btc.high == .korbit && btc.low == .bithumb)
        // (100,300,000 − 99,800,000) / 99,800,000 = 0.00501002…
        #expect(abs((btc.gap ?? 0) - 500_000.0 / 99_800_000.0) < 1e-15)
    }

    /// Every exchange at one price: no venue is dearest or cheapest (it used to say Bithumb for both).
    @Test func aTieOnEveryVenueNamesNoHighOrLow() throws {
        let venues: [Exchange: CompareBoard.Venue] = [
            .upbit: .init(rows: [Self.row("KRW-XRP", 3_000, .upbit)], stale: false),
            .korbit: .init(rows: [Self.row("KRW-XRP", 3_000, .korbit)], stale: false),
            .bithumb: .init(rows: [Self.row("KRW-XRP", 3_000, .bithumb)], stale: false),
        ]
        let xrp = try #require(CompareBoard.rows(venues).first)
        #expect(xrp.high == nil && xrp.low == nil && xrp.gap == 0 && xrp.tied)
        let json = CompareRowJSON(xrp, formatter: MarketFormatter(language: .en))
        #expect(json.tied && json.high == nil && json.low == nil)
    }

    @Test func staleVenuesAreShownButLeftOutOfTheGap() throws {
        let venues: [Exchange: CompareBoard.Venue] = [
            .upbit: .init(rows: [Self.row("KRW-ETH", 4_000_000, .upbit)], stale: false),
            .korbit: .init(rows: [Self.row("KRW-ETH", 5_000_000, .korbit)], stale: true),
            .bithumb: .init(rows: [Self.row("KRW-ETH", 4_040_000, .bithumb)], stale: false),
        ]
        let eth = try #require(CompareBoard.rows(venues).first)
        #expect(eth.prices[.korbit] == 5_000_000 && eth.stale == [.korbit])
        #expect(eth.high == .bithumb && eth.low == .upbit && abs((eth.gap ?? 0) - 0.01) < 1e-12)
        let two: [Exchange: CompareBoard.Venue] = [
            .upbit: .init(rows: [Self.row("KRW-ETH", 4_000_000, .upbit)], stale: false),
            .korbit: .init(rows: [Self.row("KRW-ETH", 5_000_000, .korbit)], stale: true),
        ]
        #expect(CompareBoard.rows(two).first?.gap == nil, "one current venue: no gap, never a made-up one")
    }

    @Test func sortedByGapWidestFirstOrBySymbol() {
        let venues: [Exchange: CompareBoard.Venue] = [
            .upbit: .init(rows: [Self.row("KRW-AAA", 100, .upbit), Self.row("KRW-BBB", 100, .upbit)], stale: false),
            .korbit: .init(rows: [Self.row("KRW-AAA", 101, .korbit), Self.row("KRW-BBB", 105, .korbit)], stale: false),
        ]
        #expect(CompareBoard.rows(venues).map(\.symbol) == ["BBB", "AAA"])
        #expect(CompareBoard.rows(venues, sort: .symbol).map(\.symbol) == ["AAA", "BBB"])
        #expect(CompareBoard.rows(venues, symbols: ["AAA"]).map(\.symbol) == ["AAA"])
    }
}
