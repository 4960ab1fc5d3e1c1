import Foundation

/// What a person's exchange accounts hold, valued now: one row per exchange and currency as the
/// exchange reports it, at that exchange's own KRW price, beside the exchange's own average buy
/// price where it keeps one. A coin the exchange lists no KRW market for (delisted, airdropped)
/// is shown with no price, never dropped; Korean won is cash at face value.
public struct AccountHoldings: Sendable, Equatable, Codable {
    /// How each exchange answered.
    public struct Source: Sendable, Equatable, Codable {
        public enum State: String, Sendable, Codable {
            /// Read just now.
            case live
            /// The exchange refused the key (`problem` says what to fix).
            case refused
            /// The exchange could not be read (down, slow, malformed).
            case failing
        }

        public var exchange: Exchange
        public var state: State
        public var problem: KeyProblem?
        /// What to do or what went wrong, in the person's language.
        public var message: String?
        /// When its balances were read, epoch ms.
        public var fetchedAt: Int64?

        public init(exchange: Exchange, state: State, problem: KeyProblem? = nil, message: String? = nil, fetchedAt: Int64? = nil) {
            self.exchange = exchange
            self.state = state
            self.problem = problem
            self.message = message
            self.fetchedAt = fetchedAt
        }
    }

    /// One currency on one exchange.
    public struct Holding: Sendable, Equatable, Codable {
        public var exchange: Exchange
        public var currency: String
        /// The KRW market it is valued on (nil: cash, or no KRW market lists it).
        public var market: String?
        /// Held in all (free and locked).
        public var quantity: Decimal
        public var locked: Decimal
        public var averageBuyPrice: Decimal?
        public var averageModified: Bool
        public var unitCurrency: String
        /// The exchange's KRW price now (nil: no market, or no price).
        public var price: Decimal?
        /// KRW value now (cash at face value; nil without a price).
        public var value: Decimal?
        /// Against the exchange's own average (KRW-priced coins with an average only).
        public var profit: Decimal?
        /// `profit` over the cost, in percent.
        public var profitRate: Double?
    }

    public var sources: [Source]
    public var holdings: [Holding]
    /// The KRW value of every holding that has one.
    public var totalValue: Decimal
    /// Korean won held, across the exchanges.
    public var cash: Decimal

    /// Values `balances` with `price(exchange, "KRW-XXX")`: the exchange's last KRW price of a
    /// listed coin, nil for one it does not list.
    public init(sources: [Source], balances: [AccountBalance], price: (Exchange, MarketID) -> Decimal?) {
        self.sources = sources
        var rows: [Holding] = []
        var total: Decimal = 0
        var cash: Decimal = 0
        for balance in balances where balance.total > 0 || balance.isCash {
            let market = balance.isCash ? nil : MarketID("KRW-" + balance.currency)
            let now = market.flatMap { price(balance.exchange, $0) }
            var value: Decimal? = balance.isCash ? balance.total : now.map { $0 * balance.total }
            if let figure = value {
                var rounded = Decimal()
                var exact = figure
                NSDecimalRound(&rounded, &exact, 0, .plain)
                value = rounded
                total += rounded
            }
            if balance.isCash { cash += balance.total }
            var profit: Decimal?
            var rate: Double?
            if let average = balance.averageBuyPrice, balance.unitCurrency == "KRW", let value, !balance.isCash {
                let cost = average * balance.total
                profit = value - cost
                if cost > 0 { rate = NSDecimalNumber(decimal: (value - cost) / cost * 100).doubleValue }
            }
            rows.append(
                Holding(
                    exchange: balance.exchange,
                    currency: balance.currency,
                    market: now == nil ? nil : market?.code,
                    quantity: balance.total,
                    locked: balance.locked,
                    averageBuyPrice: balance.averageBuyPrice,
                    averageModified: balance.averageModified,
                    unitCurrency: balance.unitCurrency,
                    price: now,
                    value: value,
                    profit: profit,
                    profitRate: rate
                )
            )
        }
        // The largest first, by exchange; the unpriced last.
        holdings = rows.sorted { a, b in
            if a.exchange != b.exchange {
                return a.exchange.listOrder < b.exchange.listOrder
            }
            return (a.value ?? -1, b.currency) > (b.value ?? -1, a.currency)
        }
        totalValue = total
        self.cash = cash
    }
}
