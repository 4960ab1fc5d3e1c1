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
    /// The caution's grade (`caution`, `warning`, `danger`) where the exchange grades it.
    public var cautionLevel: CautionLevel?
    /// The caution's reasons in words, in the face's language (empty: no caution).
    public var cautionReasons: [String]
    /// The kimchi premium as a signed fraction; nil (JSON `null`) when unknown or not KRW.
    public var premium: Double?
    public var display: RowDisplay

    /// - Parameter premium: the row's kimchi premium, when the face knows one.
    public init(_ row: MarketRow, formatter: MarketFormatter, premium: Double? = nil) {
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
        cautionLevel = row.market.cautionLevel
        cautionReasons = row.market.cautionWords(formatter.language)
        self.premium = premium
        display = formatter.display(row, premium: premium)
    }

    enum Keys: String, CodingKey {
        case exchange, market, symbol, koreanName, englishName, price, change, changeRate, changePrice, tradeValue24h, warning, cautionLevel
        case cautionReasons, premium, display
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(exchange, forKey: .exchange)
        try c.encode(market, forKey: .market)
        try c.encode(symbol, forKey: .symbol)
        try c.encode(koreanName, forKey: .koreanName)
        try c.encode(englishName, forKey: .englishName)
        try c.encode(price, forKey: .price)
        try c.encode(change, forKey: .change)
        try c.encode(changeRate, forKey: .changeRate)
        try c.encode(changePrice, forKey: .changePrice)
        try c.encode(tradeValue24h, forKey: .tradeValue24h)
        try c.encode(warning, forKey: .warning)
        try c.encode(cautionLevel, forKey: .cautionLevel)
        try c.encode(cautionReasons, forKey: .cautionReasons)
        try c.encode(premium, forKey: .premium)
        try c.encode(display, forKey: .display)
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
