import Foundation

/// One OHLC bucket. `start` is the bucket's start (UTC); `lastTradeAt` the last tick inside it.
public struct Candle: Hashable, Sendable {
    public var market: MarketID
    public var start: Date
    public var open: Double
    public var high: Double
    public var low: Double
    public var close: Double
    /// Traded quantity in the bucket (base asset).
    public var volume: Double
    /// Traded value in the bucket (quote currency).
    public var value: Double
    public var lastTradeAt: Int64

    public init(
        market: MarketID,
        start: Date,
        open: Double,
        high: Double,
        low: Double,
        close: Double,
        volume: Double,
        value: Double,
        lastTradeAt: Int64
    ) {
        self.market = market
        self.start = start
        self.open = open
        self.high = high
        self.low = low
        self.close = close
        self.volume = volume
        self.value = value
        self.lastTradeAt = lastTradeAt
    }
}

/// The candle periods Upbit serves.
public enum CandleUnit: Hashable, Sendable {
    case seconds
    /// 1, 3, 5, 10, 15, 30, 60 or 240.
    case minutes(Int)
    case days
    case weeks
    case months
    case years

    public static let allowedMinutes: Set<Int> = [1, 3, 5, 10, 15, 30, 60, 240]

    /// The REST path below `/v1/candles/`.
    public var pathComponent: String {
        switch self {
        case .seconds: "seconds"
        case .minutes(let n): "minutes/\(n)"
        case .days: "days"
        case .weeks: "weeks"
        case .months: "months"
        case .years: "years"
        }
    }
}
