import Foundation

/// A portfolio valued at live prices: what `GET /api/portfolio`, `sise portfolio --json`, the
/// page's table and the TUI all show. Money and quantities are decimal strings (no precision
/// lost); rates are signed fractions (0.1 = +10 %), like `changeRate` elsewhere.
public struct PortfolioReport: Encodable, Equatable, Sendable {
    public struct Row: Encodable, Equatable, Sendable {
        public var exchange: String
        public var market: String
        public var quantity: String
        public var averagePrice: String
        public var invested: String
        /// The live price; nil when the exchange's board has no such market now.
        public var price: String?
        public var value: String?
        public var unrealizedPnl: String?
        public var realizedPnl: String
        public var returnRate: Double?
        /// The price is not live (the board is delayed, offline or idle, or has no price).
        public var stale: Bool
        /// This row's share of the portfolio's value (0…1), for the donut and bars.
        public var allocation: Double?
        /// The figures as every face shows them (`103,493,000`, `+1.05%`) and the P&L's tone.
        public var display: Display = Display()
        /// The coin's names on its exchange (`이더리움`, `Ethereum`); nil when the board does not
        /// list the market now (a face shows the market's code).
        public var koreanName: String?
        public var englishName: String?

        enum Keys: String, CodingKey {
            case exchange, market, quantity, averagePrice, invested, price, value, unrealizedPnl, realizedPnl, returnRate, stale, allocation, display,
                koreanName, englishName
        }

        /// Unknown figures are `null`, never absent: every row has every key.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(market, forKey: .market)
            try c.encode(quantity, forKey: .quantity)
            try c.encode(averagePrice, forKey: .averagePrice)
            try c.encode(invested, forKey: .invested)
            try c.encode(price, forKey: .price)
            try c.encode(value, forKey: .value)
            try c.encode(unrealizedPnl, forKey: .unrealizedPnl)
            try c.encode(realizedPnl, forKey: .realizedPnl)
            try c.encode(returnRate, forKey: .returnRate)
            try c.encode(stale, forKey: .stale)
            try c.encode(allocation, forKey: .allocation)
            try c.encode(display, forKey: .display)
            try c.encode(koreanName, forKey: .koreanName)
            try c.encode(englishName, forKey: .englishName)
        }
    }

    /// Figures formatted once, here: KRW grouped (prices in Upbit's tick decimals), P&L signed,
    /// rates as signed percentages; `-` when unknown. `tone` is rise, fall, even or stale.
    public struct Display: Encodable, Equatable, Sendable {
        public var quantity = "-"
        public var averagePrice = "-"
        public var invested = "-"
        public var price = "-"
        public var value = "-"
        public var unrealizedPnl = "-"
        public var realizedPnl = "-"
        public var returnRate = "-"
        public var tone = Tone.even.rawValue
    }

    public struct Totals: Encodable, Equatable, Sendable {
        public var invested: String
        public var value: String
        public var unrealizedPnl: String
        public var realizedPnl: String
        public var returnRate: Double?
        /// Some held position has no live price: the totals use what is known.
        public var stale: Bool
        public var display: Display = Display()

        enum Keys: String, CodingKey { case invested, value, unrealizedPnl, realizedPnl, returnRate, stale, display }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(invested, forKey: .invested)
            try c.encode(value, forKey: .value)
            try c.encode(unrealizedPnl, forKey: .unrealizedPnl)
            try c.encode(realizedPnl, forKey: .realizedPnl)
            try c.encode(returnRate, forKey: .returnRate)
            try c.encode(stale, forKey: .stale)
            try c.encode(display, forKey: .display)
        }
    }

    public var positions: [Row]
    public var totals: Totals

    /// A market's price as the board has it now, and the market's names there.
    public struct Quote: Sendable {
        public var price: Double
        public var live: Bool
        public var market: Market?
        public init(price: Double, live: Bool, market: Market? = nil) {
            self.price = price
            self.live = live
            self.market = market
        }
    }

    /// Values `positions` at `quote` (nil: no price). Positions sold to zero stay, with their
    /// realised P&L; a position without a price counts at its cost in the totals' value, so the
    /// totals never drop a holding and mark themselves stale instead.
    public init(positions: [Position], quote: (Exchange, MarketID) -> Quote?) {
        var rows: [Row] = []
        var invested: Decimal = 0
        var value: Decimal = 0
        var realized: Decimal = 0
        var anyStale = false
        var values: [Decimal?] = []
        for position in positions {
            let q = position.quantity > 0 ? quote(position.exchange, position.market) : nil
            let price = q.map { PortfolioLedger.decimal(from: $0.price) }
            let valued = price.map { position.valued(at: $0) }
            let stale = position.quantity > 0 && (q?.live != true)
            anyStale = anyStale || stale
            invested += position.invested
            realized += position.realizedPnl
            value += valued?.value ?? position.invested
            values.append(position.quantity > 0 ? (valued?.value ?? position.invested) : nil)
            rows.append(
                Row(
                    exchange: position.exchange.rawValue,
                    market: position.market.code,
                    quantity: PortfolioLedger.text(position.quantity),
                    averagePrice: PortfolioLedger.text(position.averagePrice, scale: 4),
                    invested: PortfolioLedger.text(position.invested, scale: 4),
                    price: price.map { PortfolioLedger.text($0) },
                    value: valued.map { PortfolioLedger.text($0.value, scale: 4) },
                    unrealizedPnl: valued.map { PortfolioLedger.text($0.unrealizedPnl, scale: 4) },
                    realizedPnl: PortfolioLedger.text(position.realizedPnl, scale: 4),
                    returnRate: valued?.returnRate,
                    stale: stale,
                    allocation: nil,
                    koreanName: q?.market?.koreanName,
                    englishName: q?.market?.englishName
                )
            )
        }
        if value > 0 {
            for index in rows.indices {
                if let share = values[index] { rows[index].allocation = NSDecimalNumber(decimal: share / value).doubleValue }
            }
        }
        let unrealized = value - invested
        for index in rows.indices { rows[index].display = Self.display(rows[index]) }
        self.positions = rows
        totals = Totals(
            invested: PortfolioLedger.text(invested, scale: 4),
            value: PortfolioLedger.text(value, scale: 4),
            unrealizedPnl: PortfolioLedger.text(unrealized, scale: 4),
            realizedPnl: PortfolioLedger.text(realized, scale: 4),
            returnRate: invested > 0 ? NSDecimalNumber(decimal: unrealized / invested).doubleValue : nil,
            stale: anyStale
        )
        let f = MarketFormatter()
        totals.display = Display(
            invested: Self.money(totals.invested),
            value: Self.money(totals.value),
            unrealizedPnl: Self.signedMoney(totals.unrealizedPnl),
            realizedPnl: Self.signedMoney(totals.realizedPnl),
            returnRate: totals.returnRate.map(f.rate) ?? "-",
            tone: PriceChange(signed: Self.number(totals.unrealizedPnl) ?? 0).tone.rawValue
        )
    }

    static func display(_ row: Row) -> Display {
        let f = MarketFormatter()
        let pnl = row.unrealizedPnl.flatMap(number)
        return Display(
            quantity: Self.number(row.quantity) == nil ? row.quantity : HoldingText.grouped(row.quantity),
            averagePrice: price(row.averagePrice),
            invested: money(row.invested),
            price: row.price.map(price) ?? "-",
            value: row.value.map(money) ?? "-",
            unrealizedPnl: row.unrealizedPnl.map(signedMoney) ?? "-",
            realizedPnl: signedMoney(row.realizedPnl),
            returnRate: row.returnRate.map(f.rate) ?? "-",
            tone: row.stale ? Tone.stale.rawValue : PriceChange(signed: pnl ?? 0).tone.rawValue
        )
    }

    static func number(_ text: String) -> Double? { Double(text).flatMap { $0.isFinite ? $0 : nil } }
    // The figures from the exact decimals the report holds (a 21-digit sum keeps every digit);
    // `text` is the report's own (`PortfolioLedger.text`), signed.
    static func exact(_ text: String) -> Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }
    static func price(_ text: String) -> String { exact(text).map { DecimalText.price($0) } ?? text }
    static func money(_ text: String) -> String { exact(text).map { DecimalText.grouped($0, places: 0) } ?? text }
    static func signedMoney(_ text: String) -> String { exact(text).map { DecimalText.signed($0, places: 0) } ?? text }
}
