import Foundation

/// One market's closes on one interval, built from its ticks (and seeded from the exchange's
/// candles, so a restart or a new rule does not wait hours to warm up). A candle closes when the
/// first tick of a later bucket arrives (buckets in UTC: a day starts at 09:00 KST, as the
/// exchanges' day candles do); only then is it read. Buckets with no tick have no candle, as on
/// the exchanges' charts.
struct ClosingCandles: Sendable {
    let span: Int64
    /// The closed candles' closes, oldest first (at most `IndicatorSignal.history`).
    private(set) var closes: [Double] = []
    /// The bucket forming now and its last price.
    private(set) var bucket: Int64?
    private var last = 0.0
    /// The start of the oldest closed candle held (a seed goes before it).
    private var oldest: Int64?

    init(minutes: Int) {
        span = Int64(minutes) * 60_000
    }

    /// A tick at `at` (epoch ms): whether a candle closed with it (its close now last in `closes`).
    mutating func add(_ price: Double, at: Int64) -> Bool {
        // A time before 1970 is no exchange's: ignored (and never near the arithmetic's edge).
        guard price.isFinite, price > 0, at >= 0 else { return false }
        let now = Self.floor(at, span)
        guard let current = bucket else {
            bucket = now
            last = price
            return false
        }
        guard now > current else {
            // The same bucket (or a late tick of an earlier one): the forming candle's price.
            if now == current { last = price }
            return false
        }
        closes.append(last)
        if closes.count > IndicatorSignal.history { closes.removeFirst(closes.count - IndicatorSignal.history) }
        if oldest == nil { oldest = current }
        bucket = now
        last = price
        return true
    }

    /// The exchange's closed candles (start epoch ms, close), oldest first: those older than every
    /// candle held (and than the one forming) go before them — a seed adds history, never
    /// replaces a close the ticks made.
    mutating func seed(_ candles: [(start: Int64, close: Double)]) {
        let limit = oldest ?? bucket ?? Int64.max
        let older = candles.filter { $0.start < limit && $0.close.isFinite && $0.close > 0 }
        guard let first = older.first else { return }
        closes = Array((older.map(\.close) + closes).suffix(IndicatorSignal.history))
        oldest = first.start
    }

    /// The start of the bucket `at` (≥ 0) falls in.
    static func floor(_ at: Int64, _ span: Int64) -> Int64 {
        at / span * span
    }
}
