import Foundation

/// The public JSON shape of a board row — `sise markets --json`, `sise price --json`, the HTTP
/// API and `sise watch` all print at least these keys.
public struct MarketRowJSON: Encodable, Hashable, Sendable {
    /// `upbit`, `korbit` or `bithumb`.
    public var exchange: Exchange
    public var market: String
    public var symbol: String
    public var koreanName: String
    public var englishName: String
    public var price: Double
    public var change: PriceChange
    /// Signed fraction, as Upbit gives it (0.0105 = +1.05 %).
    public var changeRate: Double
    public var changePrice: Double
    public var tradeValue24h: Double
    public var warning: Bool
    public var display: RowDisplay

    public init(_ row: MarketRow, formatter: MarketFormatter) {
        exchange = row.exchange
        market = row.id.code
        symbol = row.market.symbol
        koreanName = row.market.koreanName
        englishName = row.market.englishName
        price = row.ticker.price
        change = row.ticker.change
        changeRate = row.ticker.signedChangeRate
        changePrice = row.ticker.signedChangePrice
        tradeValue24h = row.ticker.tradeValue24h
        warning = row.market.warning
        display = formatter.display(row)
    }
}

extension MarketRowJSON {
    /// The row's keys and, beside them in the same object, a face's own keys (`sise watch`'s
    /// `type` and `at`, the WebSocket's `caution` and `ts`).
    public struct With<Extra: Encodable>: Encodable {
        public let row: MarketRowJSON
        public let extra: Extra

        public init(_ row: MarketRowJSON, _ extra: Extra) {
            self.row = row
            self.extra = extra
        }

        public func encode(to encoder: any Encoder) throws {
            try row.encode(to: encoder)
            try extra.encode(to: encoder)
        }
    }
}
