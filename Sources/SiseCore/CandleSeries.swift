import Foundation

/// The candle periods the charts offer: `1m 5m 15m 1h 4h 1d 1w`.
public enum CandleInterval: String, CaseIterable, Sendable, Codable {
    case m1 = "1m"
    case m5 = "5m"
    case m15 = "15m"
    case h1 = "1h"
    case h4 = "4h"
    case d1 = "1d"
    case w1 = "1w"

    /// The exchange's candle unit for it.
    public var unit: CandleUnit {
        switch self {
        case .m1: .minutes(1)
        case .m5: .minutes(5)
        case .m15: .minutes(15)
        case .h1: .minutes(60)
        case .h4: .minutes(240)
        case .d1: .days
        case .w1: .weeks
        }
    }

    /// One candle's length in ms (a week for `1w`).
    public var milliseconds: Int64 {
        switch self {
        case .m1: 60_000
        case .m5: 300_000
        case .m15: 900_000
        case .h1: 3_600_000
        case .h4: 14_400_000
        case .d1: 86_400_000
        case .w1: 604_800_000
        }
    }

    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}

/// Candles with their indicators, oldest first: what `sise candles --json`, `/api/candles` and
/// the charts share. Every indicator is `nil` until enough candles exist (see `Indicators`).
public struct CandleSeries: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        /// The candle's start, epoch ms.
        public var time: Int64
        public var open: Double
        public var high: Double
        public var low: Double
        public var close: Double
        public var volume: Double
        /// MA 5, 20, 60, 120.
        public var ma: [Int: Double?]
        /// EMA 12, 26.
        public var ema: [Int: Double?]
        public var bollinger: Indicators.Band?
        public var rsi: Double?
        public var macd: Indicators.MACD?
    }

    public static let maPeriods = [5, 20, 60, 120]
    public static let emaPeriods = [12, 26]

    public var rows: [Row]

    /// The series of `candles` (any order; sorted by start, duplicates dropped). `last` shows only
    /// the newest that many (indicators still use every candle before them).
    public init(candles: [Candle], last: Int? = nil) {
        var seen = Set<Date>()
        let sorted = candles.sorted { $0.start < $1.start }.filter { seen.insert($0.start).inserted }
        let closes = sorted.map(\.close)
        let ma = Dictionary(uniqueKeysWithValues: Self.maPeriods.map { ($0, Indicators.sma(closes, period: $0)) })
        let ema = Dictionary(uniqueKeysWithValues: Self.emaPeriods.map { ($0, Indicators.ema(closes, period: $0)) })
        let bands = Indicators.bollinger(closes)
        let rsi = Indicators.rsi(closes)
        let macd = Indicators.macd(closes)
        var rows: [Row] = []
        for (i, c) in sorted.enumerated() {
            rows.append(
                Row(
                    time: Int64((c.start.timeIntervalSince1970 * 1_000).rounded()),
                    open: c.open,
                    high: c.high,
                    low: c.low,
                    close: c.close,
                    volume: c.volume,
                    ma: ma.mapValues { $0[i] },
                    ema: ema.mapValues { $0[i] },
                    bollinger: bands[i],
                    rsi: rsi[i],
                    macd: macd[i]
                )
            )
        }
        if let last, last >= 0, rows.count > last { rows.removeFirst(rows.count - last) }
        self.rows = rows
    }

    /// The live price folded into the newest candle when it belongs to it (its period has not
    /// ended): the last candle moves with the ticks between two candle fetches.
    public static func withLive(_ candles: [Candle], price: Double, at ms: Int64, interval: CandleInterval) -> [Candle] {
        guard price.isFinite, price > 0, let newest = candles.max(by: { $0.start < $1.start }),
            let index = candles.firstIndex(of: newest)
        else { return candles }
        let start = Int64(newest.start.timeIntervalSince1970 * 1_000)
        guard ms >= start, ms < start + interval.milliseconds else { return candles }
        var out = candles
        out[index].close = price
        out[index].high = max(newest.high, price)
        out[index].low = min(newest.low, price)
        return out
    }
}

/// A row as `--json` and the API print it: `{"time","open","high","low","close","volume",
/// "ma":{"5","20","60","120"},"ema":{"12","26"},"bb":{"upper","middle","lower"},"rsi",
/// "macd":{"macd","signal","histogram"}}`, `null` where an indicator has no value yet.
public struct CandleRowJSON: Encodable, Sendable {
    public let row: CandleSeries.Row

    public init(_ row: CandleSeries.Row) {
        self.row = row
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ text: String) { stringValue = text }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(row.time, forKey: Key("time"))
        try c.encode(row.open, forKey: Key("open"))
        try c.encode(row.high, forKey: Key("high"))
        try c.encode(row.low, forKey: Key("low"))
        try c.encode(row.close, forKey: Key("close"))
        try c.encode(row.volume, forKey: Key("volume"))
        var ma = c.nestedContainer(keyedBy: Key.self, forKey: Key("ma"))
        for period in CandleSeries.maPeriods { try ma.encode(row.ma[period] ?? nil, forKey: Key(String(period))) }
        var ema = c.nestedContainer(keyedBy: Key.self, forKey: Key("ema"))
        for period in CandleSeries.emaPeriods { try ema.encode(row.ema[period] ?? nil, forKey: Key(String(period))) }
        var bb = c.nestedContainer(keyedBy: Key.self, forKey: Key("bb"))
        try bb.encode(row.bollinger?.upper, forKey: Key("upper"))
        try bb.encode(row.bollinger?.middle, forKey: Key("middle"))
        try bb.encode(row.bollinger?.lower, forKey: Key("lower"))
        try c.encode(row.rsi, forKey: Key("rsi"))
        var macd = c.nestedContainer(keyedBy: Key.self, forKey: Key("macd"))
        try macd.encode(row.macd?.macd, forKey: Key("macd"))
        try macd.encode(row.macd?.signal, forKey: Key("signal"))
        try macd.encode(row.macd?.histogram, forKey: Key("histogram"))
    }
}
