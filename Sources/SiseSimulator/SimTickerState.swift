import Foundation

/// A market's ticker at one instant, derived from its walk: day open and close at 00:00 UTC,
/// day high/low sampled along the walk, 52-week extremes from daily samples.
struct SimTickerState: Sendable {
    var price: Double
    var open: Double
    var high: Double
    var low: Double
    var prevClose: Double
    var value24h: Double
    var volume24h: Double
    var dayValue: Double
    var dayVolume: Double
    var high52: Double
    var high52Date: String
    var low52: Double
    var low52Date: String
    var tradeTimestamp: Int64
    var timestamp: Int64

    var signedChange: Double { price - prevClose }
    var change: String { price > prevClose ? "RISE" : (price < prevClose ? "FALL" : "EVEN") }
    var signedRate: Double { prevClose == 0 ? 0 : (price - prevClose) / prevClose }

    /// The lowest and highest prices of the 364 days before a day, sampled every other day at
    /// noon (cached by the exchange; cheap enough that many simulators start at once in tests).
    struct YearExtremes: Sendable {
        var high: Double, highDay: Int, low: Double, lowDay: Int

        init(market: SimMarket, dayStart: Double) {
            (high, highDay, low, lowDay) = (0, Int(dayStart), .infinity, Int(dayStart))
            for day in stride(from: 1, through: 364, by: 2) {
                let at = dayStart - Double(day) * 86_400
                let p = market.price(at: at + 43_200)
                if p > high { (high, highDay) = (p, Int(at)) }
                if p < low { (low, lowDay) = (p, Int(at)) }
            }
        }
    }

    static func dayStart(ofMilliseconds ms: Int64) -> Double {
        (Double(ms) / 1_000 / 86_400).rounded(.down) * 86_400
    }

    /// The half hour an instant falls in, [mark, next mark): two instants in one bucket walk the
    /// same samples (the mark itself counts through the price of the instant), and a bucket never
    /// spans two days (a day is 48 of them, starting at midnight).
    static func sampleBucket(ofMilliseconds ms: Int64) -> Int64 {
        ms >= 0 ? ms / 1_800_000 : (ms - 1_799_999) / 1_800_000
    }

    /// Moves a cached state to a later instant of the same sample bucket: new price and traded
    /// value, widened high/low.
    mutating func reprice(market: SimMarket, atMilliseconds ms: Int64) {
        let t = Double(ms) / 1_000
        (price, tradeTimestamp) = market.traded(atOrBefore: ms)
        high = max(high, price)
        low = min(low, price)
        (value24h, volume24h, dayValue, dayVolume) = Self.traded(market, price: price, at: t)
        timestamp = ms
    }

    /// The traded value and volume of the last 24 hours and of the day so far, at `t`.
    private static func traded(_ market: SimMarket, price: Double, at t: Double) -> (Double, Double, Double, Double) {
        let value24h = market.value24h(at: t)
        let dayValue = value24h * max(0.01, (t - (t / 86_400).rounded(.down) * 86_400) / 86_400)
        return (value24h, value24h / max(price, 1e-12), dayValue, dayValue / max(price, 1e-12))
    }

    init(market: SimMarket, atMilliseconds ms: Int64, year: YearExtremes) {
        let t = Double(ms) / 1_000
        let dayStart = (t / 86_400).rounded(.down) * 86_400
        (price, tradeTimestamp) = market.traded(atOrBefore: ms)
        open = market.price(at: dayStart)
        prevClose = market.price(at: dayStart - 0.001)
        var high = max(open, price)
        var low = min(open, price)
        var s = dayStart + 1_800
        while s < t {
            let p = market.price(at: s)
            high = max(high, p)
            low = min(low, p)
            s += 1_800
        }
        self.high = high
        self.low = low
        (value24h, volume24h, dayValue, dayVolume) = Self.traded(market, price: price, at: t)
        let hi = year.high > high ? (year.high, year.highDay) : (high, Int(dayStart))
        let lo = year.low < low ? (year.low, year.lowDay) : (low, Int(dayStart))
        (high52, high52Date) = (hi.0, SimTime.dashedDate(hi.1))
        (low52, low52Date) = (lo.0, SimTime.dashedDate(lo.1))
        timestamp = ms
    }
}
