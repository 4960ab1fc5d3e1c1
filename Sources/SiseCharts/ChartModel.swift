import Foundation
import SiseCore

/// One chart, whatever draws it: the points, the scales, and the labels (KRW from SiseCore's
/// formats, times in KST). The SVG and the terminal renderings both read this.
public struct ChartModel: Sendable, Equatable {
    public enum Range: String, Sendable, CaseIterable {
        case day = "1d", week = "7d", month = "30d", year = "1y"

        public var days: Int {
            switch self {
            case .day: 1
            case .week: 7
            case .month: 30
            case .year: 365
            }
        }
    }

    public let points: [PricePoint]
    public let range: Range
    public let quote: String
    public let priceScale: NiceScale
    public let start: Int64
    public let end: Int64

    public init(points: [PricePoint], range: Range, quote: String = "KRW") {
        let sorted = points.filter { $0.price.isFinite }.sorted { $0.time < $1.time }
        self.points = sorted
        self.range = range
        self.quote = quote
        let prices = sorted.map(\.price)
        priceScale = NiceScale(min: prices.min() ?? 0, max: prices.max() ?? 1, count: 5)
        start = sorted.first?.time ?? 0
        end = sorted.last?.time ?? 1
    }

    /// Rising over the range (red in Korean convention) or not (blue).
    public var isRising: Bool { (points.last?.price ?? 0) >= (points.first?.price ?? 0) }

    public func x(_ time: Int64) -> Double {
        end == start ? 0.5 : Double(time - start) / Double(end - start)
    }

    /// Price tick labels, formatted like the board.
    public func priceLabels(language: Language = .ko) -> [(value: Double, text: String)] {
        let formatter = MarketFormatter(language: language)
        return priceScale.ticks.map { ($0, formatter.price($0, quote: quote)) }
    }

    /// About five time labels in KST: hours for a day, month/day for weeks and months, year-month for a year.
    public func timeLabels() -> [(time: Int64, text: String)] {
        guard points.count >= 2, end > start else { return [] }
        let count = 4
        return (0...count).map { i in
            let t = start + (end - start) * Int64(i) / Int64(count)
            return (t, Self.kst(t, range))
        }
    }

    static func kst(_ ms: Int64, _ range: Range) -> String {
        let seconds = ms / 1_000 + 9 * 3_600
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secs = Int(seconds) - days * 86_400
        // Civil date from days since 1970 (UTC arithmetic on the shifted time).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        switch range {
        case .day: return String(format: "%02d:%02d", secs / 3_600, secs % 3_600 / 60)
        case .week, .month: return String(format: "%02d/%02d", m, d)
        case .year: return String(format: "%04d-%02d", y, m)
        }
    }
}
