import Foundation

/// The public JSON shape of a cross-exchange row — `sise compare --json` and `/api/compare`:
/// `{"symbol","koreanName","englishName","prices":{"upbit":…},"high","low","gap",
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
    public var stale: [String: Bool]
    public var display: Display

    public struct Display: Encodable, Sendable {
        public var prices: [String: String]
        public var gap: String
    }

    public init(_ row: CompareRow, formatter: MarketFormatter) {
        symbol = row.symbol
        koreanName = row.koreanName
        englishName = row.englishName
        prices = Dictionary(uniqueKeysWithValues: row.prices.map { ($0.key.rawValue, $0.value) })
        high = row.high?.rawValue
        low = row.low?.rawValue
        gap = row.gap
        stale = Dictionary(uniqueKeysWithValues: row.prices.keys.map { ($0.rawValue, row.stale.contains($0)) })
        display = Display(prices: Dictionary(uniqueKeysWithValues: row.prices.map { ($0.key.rawValue, formatter.price($0.value, quote: "KRW")) }),
                          gap: row.gap.map { formatter.percent($0) } ?? "-")
    }
}
