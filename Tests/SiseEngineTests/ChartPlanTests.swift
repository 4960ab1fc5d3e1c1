import Foundation
import SiseCharts
import SiseCore
import SiseEngine
import SiseFeeds
import Testing

/// Chart ranges × exchanges: each range is drawn from an interval the exchange serves (its own
/// table), and an exchange whose ticker lacks the 52-week figures gets them from its candles.
@Suite struct ChartPlanTests {
    /// Serves only the intervals in `units`; its weekly candles have known highs and lows.
    struct Venue: ExchangeAPI {
        let units: Set<CandleUnit>
        func serves(_ unit: CandleUnit) -> Bool { units.contains(unit) }
        func markets() async throws -> [Market] { [] }
        func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] { [] }
        func tickers(markets: [MarketID]) async throws -> [Ticker] { [] }
        func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] { [:] }
        func orderbook(market: MarketID) async throws -> Orderbook { Orderbook(market: market, timestamp: 0, asks: [], bids: []) }
        func trades(market: MarketID, count: Int) async throws -> [Trade] { [] }
        func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] {
            guard serves(unit) else { throw FeedError.badRequest(name: "interval", message: "no \(unit.pathComponent) candles") }
            return (0..<count).map { i in
                let start = Date(timeIntervalSince1970: 1_790_000_000 - Double(i) * 604_800)
                return Candle(
                    market: market,
                    start: start,
                    open: 100,
                    high: i == 3 ? 150 : 110,
                    low: i == 7 ? 60 : 90,
                    close: 100,
                    volume: 1,
                    value: 100,
                    lastTradeAt: 0
                )
            }
        }
    }

    static let upbitLike = Venue(units: [.minutes(10), .minutes(15), .minutes(60), .days, .weeks])
    static let korbitLike = Venue(units: [.minutes(1), .minutes(5), .minutes(15), .minutes(30), .minutes(60), .minutes(240), .days, .weeks])

    @Test(arguments: [
        (ChartModel.Range.day, "upbit", CandleUnit.minutes(10), 144), (.day, "korbit", .minutes(15), 96),
        (.week, "upbit", .days, 7), (.week, "korbit", .days, 7),
        (.year, "upbit", .weeks, 52), (.year, "korbit", .weeks, 52),
    ])
    func eachRangeOnEachExchange(_ range: ChartModel.Range, _ venue: String, _ unit: CandleUnit, _ count: Int) async throws {
        let api = venue == "korbit" ? Self.korbitLike : Self.upbitLike
        let plan = ChartPoints.plan(range, for: api)
        #expect(plan.unit == unit && plan.count == count)
        let points = try await ChartPoints.load(api, market: MarketID("KRW-BTC")!, range: range)
        #expect(points.count == count, "the chart loads, oldest first")
        #expect(points.map(\.time) == points.map(\.time).sorted())
    }

    @Test func theYearRangeComesFromWeeklyCandles() async throws {
        let year = try #require(await ChartPoints.yearRange(Self.korbitLike, market: MarketID("KRW-BTC")!))
        #expect(year.high == 150 && year.low == 60)
        #expect(year.highDate == KSTText.date(Date(timeIntervalSince1970: 1_790_000_000 - 3 * 604_800)))
        let filled = year.filling(Ticker(market: MarketID("KRW-BTC")!, price: 1, change: .even, signedChangePrice: 0, signedChangeRate: 0))
        #expect(filled.highest52WeekPrice == 150 && filled.lowest52WeekDate == year.lowDate)
    }
}
