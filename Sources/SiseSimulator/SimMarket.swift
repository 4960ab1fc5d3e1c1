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

    func tickText(at seconds: Double) -> String {
        SimTickSize.text(price: price(at: seconds), quote: quote)
    }

    /// The value traded over the 24 hours up to `seconds` (a rolling sum, as exchanges report it).
    func value24h(at seconds: Double) -> Double {
        dailyValue * walk.dayActivity(at: seconds)
    }
}
