import Foundation
import SiseCharts
import SiseCore
import SiseFeeds

/// Upbit candles for a chart range: minutes for a day, days for a week or a month, weeks for a
/// year — closes, oldest first.
public enum UpbitChartPoints {
    public static func load(_ api: any ExchangeAPI, market: MarketID, range: ChartModel.Range) async throws -> [PricePoint] {
        let (unit, count): (CandleUnit, Int) = switch range {
        case .day: (.minutes(10), 144)
        case .week: (.days, 7)
        case .month: (.days, 30)
        case .year: (.weeks, 52)
        }
        return try await api.candles(market: market, unit: unit, count: count, to: nil)
            .map { PricePoint(time: Int64($0.start.timeIntervalSince1970 * 1_000), price: $0.close) }
            .sorted { $0.time < $1.time }
    }
}
