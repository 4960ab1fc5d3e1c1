import Foundation

/// One listing of the simulated exchange and the rule for its price at any instant.
struct SimMarket: Sendable {
    let code: String
    let quote: String
    let base: String
    let korean: String
    let english: String
    let warning: Bool
    let cautions: [String]
    /// The price the walk wanders around, in the quote currency.
    let basePrice: Double
    let walk: PriceWalk
    /// For BTC and USDT markets: the walk of the quote asset in KRW, which divides this one.
    let denominator: PriceWalk?
    /// Typical 24 h traded value in the quote currency.
    let dailyValue: Double

    /// The quoted price at `seconds` since the epoch: always a whole tick.
    func price(at seconds: Double) -> Double {
        let raw = basePrice * walk.factor(at: seconds) / (denominator?.factor(at: seconds) ?? 1)
        return SimTickSize.snap(raw, quote: quote)
    }

    /// A market trades every this many milliseconds, at a phase of its own: its ticker's price is
    /// its last trade's, and a candle closes at the last trade inside it — so the stream's last
    /// trade before an instant and the candle that ends there tell one price (as a real exchange's do).
    static let tradeEvery: Int64 = 250

    /// The time of the last trade at or before `ms` (epoch ms).
    func lastTrade(atOrBefore ms: Int64) -> Int64 {
        let phase = Int64(SimRandom.hash(code) % UInt64(Self.tradeEvery))
        let shifted = ms - phase
        let slot = shifted >= 0 ? shifted / Self.tradeEvery : (shifted - Self.tradeEvery + 1) / Self.tradeEvery
        return slot * Self.tradeEvery + phase
    }

    /// The price of the last trade at or before `ms`, and when it traded.
    func traded(atOrBefore ms: Int64) -> (price: Double, at: Int64) {
        let at = lastTrade(atOrBefore: ms)
        return (price(at: Double(at) / 1_000), at)
    }

    func tickText(at seconds: Double) -> String {
        SimTickSize.text(price: price(at: seconds), quote: quote)
    }

    /// The value traded over the 24 hours up to `seconds` (a rolling sum, as exchanges report it).
    func value24h(at seconds: Double) -> Double {
        dailyValue * walk.dayActivity(at: seconds)
    }
}
