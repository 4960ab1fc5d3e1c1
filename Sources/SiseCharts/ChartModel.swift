import Foundation
import SiseCore

/// One chart, whatever draws it: the points, the scales, and the labels (KRW from SiseCore's
/// formats, times in KST). The SVG and the terminal renderings both read this.
public struct ChartModel: Sendable, Equatable {
    public enum Range: String, Sendable, CaseIterable {
        case day = "1d"
        case week = "7d"
        case month = "30d"
        case year = "1y"

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

    /// KST (UTC+9, no DST) with a POSIX locale: the same text on every machine.
    static func kst(_ ms: Int64, _ range: Range) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        formatter.dateFormat =
            switch range {
            case .day: "HH:mm"
            case .week, .month: "MM/dd"
            case .year: "yyyy-MM"
            }
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1_000))
    }
}
