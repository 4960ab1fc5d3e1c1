import Foundation

/// The public JSON shape of a cross-exchange row — `sise compare --json` and `/api/compare`:
/// `{"symbol","koreanName","englishName","prices":{"upbit":…},"high","low","gap","tied",
/// "stale":{"upbit":false,…},"display":{…}}`. Prices only for the venues that list the coin.
public struct CompareRowJSON: Encodable, Sendable {
    public var symbol: String
    public var koreanName: String
    public var englishName: String
    public var prices: [String: Double]
    public var high: String?
    public var low: String?
    /// A fraction: 0.0031 = 0.31 %.
    public var gap: Double?
    /// Every current venue at one price: no high or low, a "same" mark.
    public var tied: Bool
    public var stale: [String: Bool]
    /// The coin's global price in USD(T) (when the premium knows one).
    public var global: Double?
    /// Each venue's kimchi premium (a fraction, `null` when unknown).
    public var premiums: [String: Double?]
    public var display: Display

    public struct Display: Encodable, Sendable {
        /// The coin's name in the formatter's language (Korean, else English, or the other way).
        public var name: String
        public var prices: [String: String]
        public var gap: String
        public var global: String
        public var premiums: [String: String]
    }

    /// - Parameter premium: the premium's inputs (none: every premium unknown).
    public init(_ row: CompareRow, formatter: MarketFormatter, premium: PremiumInputs = .none) {
        symbol = row.symbol
        koreanName = row.koreanName
        englishName = row.englishName
        prices = Dictionary(uniqueKeysWithValues: row.prices.map { ($0.key.rawValue, $0.value) })
        high = row.high?.rawValue
        low = row.low?.rawValue
        gap = row.gap
        tied = row.tied
        stale = Dictionary(uniqueKeysWithValues: row.prices.keys.map { ($0.rawValue, row.stale.contains($0)) })
        let quote = premium.global[row.symbol]
        let venues = row.prices.map { venue, price in
            (venue.rawValue, KimchiPremium.premium(krwPrice: price, global: quote, fx: premium.fx, now: premium.now))
        }
        premiums = Dictionary(uniqueKeysWithValues: venues)
        global = venues.contains { $0.1 != nil } ? quote?.price : nil
        display = Display(
            name: row.name(in: formatter.language),
            prices: Dictionary(uniqueKeysWithValues: row.prices.map { ($0.key.rawValue, formatter.price($0.value, quote: "KRW")) }),
            gap: row.gap.map { formatter.percent($0) } ?? "-",
            global: global.map { formatter.price($0, currency: .usd) } ?? "-",
            premiums: Dictionary(uniqueKeysWithValues: venues.map { ($0.0, $0.1.map(formatter.rate) ?? "-") })
        )
    }
}
