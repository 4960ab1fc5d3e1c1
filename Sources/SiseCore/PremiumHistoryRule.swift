import Foundation

/// How a premium's history is kept: every sample lands in a 1-minute, a 15-minute and a 1-hour
/// bucket at once, each bucket the mean of its samples; 1-minute buckets are kept 48 hours,
/// 15-minute ones 90 days, hourly ones 2 years. A range is read at the finest resolution that
/// still covers it.
public enum HistoryResolution: Int64, CaseIterable, Sendable, Codable, Comparable {
    case minute = 60_000
    case quarter = 900_000
    case hour = 3_600_000

    /// How long buckets of this resolution are kept (ms).
    public var retention: Int64 {
        switch self {
        case .minute: 48 * 3_600_000
        case .quarter: 90 * 86_400_000
        case .hour: 2 * 365 * 86_400_000
        }
    }

    /// `1m`, `15m`, `1h`.
    public var label: String {
        switch self {
        case .minute: "1m"
        case .quarter: "15m"
        case .hour: "1h"
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The start of the bucket holding `at` (epoch ms; floor, before 1970 too).
    public func bucket(_ at: Int64) -> Int64 {
        let width = rawValue
        let remainder = at % width
        return remainder < 0 ? at - remainder - width : at - remainder
    }

    /// The finest resolution that keeps a range this long (ms) reaching back from now.
    public static func serving(range: Int64) -> HistoryResolution {
        allCases.first { range <= $0.retention } ?? .hour
    }
}

/// One point of a history: a bucket's start and its mean.
public struct HistoryPoint: Sendable, Equatable, Codable {
    public var at: Int64
    public var value: Double

    public init(at: Int64, value: Double) {
        self.at = at
        self.value = value
    }
}

/// Which premium a history is of: a Korean exchange's coin against a global venue, or the
/// exchange's 테더 김프 (USDT against the official rate). Keyed `upbit:BTC:binance`,
/// `upbit:USDT:official` in the store.
public struct PremiumSeries: Sendable, Hashable {
    public var exchange: Exchange
    public var symbol: String
    /// nil: 테더 김프.
    public var venue: GlobalVenue?

    public init(exchange: Exchange, symbol: String, venue: GlobalVenue?) {
        self.exchange = exchange
        self.symbol = symbol
        self.venue = venue
    }

    public static func tether(_ exchange: Exchange) -> PremiumSeries { PremiumSeries(exchange: exchange, symbol: "USDT", venue: nil) }

    public var key: String { exchange.rawValue + ":" + symbol + ":" + (venue?.rawValue ?? "official") }

    public init?(key: String) {
        let parts = key.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let exchange = Exchange(rawValue: parts[0]), !parts[1].isEmpty else { return nil }
        if parts[2] == "official" {
            guard parts[1] == "USDT" else { return nil }
            self.init(exchange: exchange, symbol: "USDT", venue: nil)
        } else {
            guard let venue = GlobalVenue(rawValue: parts[2]) else { return nil }
            self.init(exchange: exchange, symbol: parts[1], venue: venue)
        }
    }
}

/// A history range a person asks for: `6h`, `48h`, `7d`, `90d`, `1y`, `2y`.
public enum HistoryRange {
    /// The range in ms; nil for anything but a whole number of hours, days or years within 2 years.
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let unit = trimmed.last, let number = Int64(trimmed.dropLast()), number > 0, number <= 1_000 else { return nil }
        let ms: Int64
        switch unit {
        case "h": ms = number * 3_600_000
        case "d": ms = number * 86_400_000
        case "y": ms = number * 365 * 86_400_000
        default: return nil
        }
        return ms <= HistoryResolution.hour.retention ? ms : nil
    }
}

/// The samples of one minute, as the recorder takes them: every live matrix cell and every
/// exchange's 테더 김프.
public enum PremiumSamples {
    public static func of(matrix rows: [PremiumMatrix.Row], tether: [USDTQuote], official: FXQuote?, now: Int64) -> [PremiumSeries: Double] {
        var samples: [PremiumSeries: Double] = [:]
        for row in rows {
            for (exchange, line) in row.cells {
                for (venue, cell) in line {
                    if let premium = cell.premium { samples[PremiumSeries(exchange: exchange, symbol: row.symbol, venue: venue)] = premium }
                }
            }
        }
        for quote in tether {
            if let premium = TetherPremium.premium(quote, official: official, now: now) { samples[.tether(quote.exchange)] = premium }
        }
        return samples
    }
}
