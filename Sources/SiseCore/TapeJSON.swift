/// A market's tape as the page shows it, every decision made here: the trades newest first and
/// 체결강도 over them (`GET /api/tape/{market}`, the socket's `trades` message):
/// `{"exchange","market","trades":[TradeJSON],"strength":123.45|null,"display":{"strength":"123.45%"|null}}`.
public struct TapeJSON: Encodable, Sendable {
    public let exchange: String
    public let market: String
    public let trades: [TradeJSON]
    /// 체결강도 in percent (`TradeTape.strength`); nil on a tape without sells.
    public let strength: Double?
    public let display: Display

    public struct Display: Encodable, Sendable {
        /// `123.45%`, as every face writes it.
        public let strength: String?

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(strength, forKey: .strength)
        }

        enum CodingKeys: String, CodingKey { case strength }
    }

    /// - Parameter trades: the tape, already cut and ordered (`TradeTape.newestFirst`).
    public init(_ trades: [Trade], exchange: Exchange, market: MarketID, formatter: MarketFormatter) {
        self.exchange = exchange.rawValue
        self.market = market.code
        self.trades = trades.map { TradeJSON($0, formatter: formatter) }
        strength = TradeTape.strength(trades)
        display = Display(strength: strength.map(TradeTape.strengthText))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(exchange, forKey: .exchange)
        try container.encode(market, forKey: .market)
        try container.encode(trades, forKey: .trades)
        try container.encode(strength, forKey: .strength)
        try container.encode(display, forKey: .display)
    }

    enum CodingKeys: String, CodingKey { case exchange, market, trades, strength, display }
}
