import Foundation
import SiseCharts
import SiseCore
import SiseFeeds

/// An exchange's candles for a chart range — closes, oldest first. Each range lists the intervals
/// that draw it, best first; the first the exchange serves (`ExchangeAPI.serves`, the exchange's
/// own table) is used: Upbit and Bithumb chart a day from 10-minute candles, Korbit (which has
/// none) from 15-minute ones.
public enum ChartPoints {
    /// The candle interval and count that draw `range`, best first.
    static func plans(_ range: ChartModel.Range) -> [(unit: CandleUnit, count: Int)] {
        switch range {
        case .day: [(.minutes(10), 144), (.minutes(15), 96), (.minutes(30), 48), (.minutes(60), 24)]
        case .week: [(.days, 7), (.minutes(240), 42), (.minutes(60), 168)]
        case .month: [(.days, 30)]
        case .year: [(.weeks, 52), (.days, 200)]
        }
    }

    /// The plan `api` can serve for `range`.
    public static func plan(_ range: ChartModel.Range, for api: any ExchangeAPI) -> (unit: CandleUnit, count: Int) {
        let plans = plans(range)
        return plans.first { api.serves($0.unit) } ?? plans[plans.startIndex]
    }

    public static func load(_ api: any ExchangeAPI, market: MarketID, range: ChartModel.Range) async throws -> [PricePoint] {
        let (unit, count) = plan(range, for: api)
        return try await api.candles(market: market, unit: unit, count: count, to: nil)
            .map { PricePoint(time: Int64($0.start.timeIntervalSince1970 * 1_000), price: $0.close) }
            .sorted { $0.time < $1.time }
    }

    /// The 52-week high and low from weekly candles, with their weeks (`yyyy-MM-dd`), for an
    /// exchange whose ticker does not carry them (Korbit); nil when it has no candles.
    public static func yearRange(_ api: any ExchangeAPI, market: MarketID) async -> YearRange? {
        guard
            let candles = try? await api.candles(
                market: market,
                unit: api.serves(.weeks) ? .weeks : .days,
                count: api.serves(.weeks) ? 52 : 200,
                to: nil
            ),
            let high = candles.max(by: { $0.high < $1.high }), let low = candles.min(by: { $0.low < $1.low })
        else { return nil }
        return YearRange(high: high.high, highDate: KSTText.date(high.start), low: low.low, lowDate: KSTText.date(low.start))
    }
}
