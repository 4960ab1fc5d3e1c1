import Foundation

/// What a portfolio transaction does.
public enum TransactionKind: String, Codable, CaseIterable, Sendable {
    case buy, sell, deposit, withdraw
}

/// One transaction, in decimal money and quantities (never binary floating point).
public struct PortfolioTransaction: Hashable, Codable, Sendable {
    public var id: String
    public var kind: TransactionKind
    public var exchange: Exchange
    public var market: MarketID
    public var quantity: Decimal
    /// KRW per unit (for a deposit: the value it came in at, its cost basis).
    public var price: Decimal
    public var fee: Decimal
    /// Epoch ms.
    public var at: Int64
    public var note: String

    public init(
        id: String,
        kind: TransactionKind,
        exchange: Exchange,
        market: MarketID,
        quantity: Decimal,
        price: Decimal,
        fee: Decimal = 0,
        at: Int64,
        note: String = ""
    ) {
        self.id = id
        self.kind = kind
        self.exchange = exchange
        self.market = market
        self.quantity = quantity
        self.price = price
        self.fee = fee
        self.at = at
        self.note = note
    }
}

/// A holding after its transactions, by the moving-average method Korean exchanges show
/// (평균매수가): buys and deposits add their cost (fees included) to what is invested; sells and
/// withdrawals take out the average cost of what leaves, so the average stays; a sell's proceeds
/// less fee minus that cost is realised P&L (a withdrawal's fee is a realised loss).
public struct Position: Hashable, Sendable {
    public let exchange: Exchange
    public let market: MarketID
    public var quantity: Decimal = 0
    /// The cost of what is held.
    public var invested: Decimal = 0
    public var realizedPnl: Decimal = 0

    /// Invested ÷ quantity; 0 when nothing is held.
    public var averagePrice: Decimal { quantity > 0 ? invested / quantity : 0 }

    /// Value, unrealised P&L and return at a price (KRW per unit).
    public func valued(at price: Decimal) -> (value: Decimal, unrealizedPnl: Decimal, returnRate: Double?) {
        let value = quantity * price
        let unrealized = value - invested
        let rate = invested > 0 ? NSDecimalNumber(decimal: unrealized / invested).doubleValue : nil
        return (value, unrealized, rate)
    }
}

public enum PortfolioLedger {
    public enum Problem: Error, Equatable, Sendable {
        /// A transaction's quantity or price is not positive (or its fee negative).
        case invalid(id: String)
        /// A sell or withdrawal of more than is held at that time.
        case moreThanHeld(id: String, exchange: Exchange, market: MarketID)
    }

    /// Every position of `transactions`, replayed in time order (then by id); holdings sold to
    /// zero remain with their realised P&L.
    public static func positions(_ transactions: [PortfolioTransaction]) throws(Problem) -> [Position] {
        var book: [String: Position] = [:]
        for t in transactions.sorted(by: { ($0.at, $0.id) < ($1.at, $1.id) }) {
            guard t.quantity > 0, t.price >= 0, t.fee >= 0, !t.quantity.isNaN, !t.price.isNaN, !t.fee.isNaN else {
                throw .invalid(id: t.id)
            }
            let key = t.exchange.rawValue + ":" + t.market.code
            var position = book[key] ?? Position(exchange: t.exchange, market: t.market)
            switch t.kind {
            case .buy, .deposit:
                position.invested += t.quantity * t.price + t.fee
                position.quantity += t.quantity
            case .sell, .withdraw:
                guard t.quantity <= position.quantity else { throw .moreThanHeld(id: t.id, exchange: t.exchange, market: t.market) }
                let cost = position.quantity == t.quantity ? position.invested : position.averagePrice * t.quantity
                position.realizedPnl += t.kind == .sell ? t.quantity * t.price - t.fee - cost : -t.fee
                position.quantity -= t.quantity
                position.invested = position.quantity > 0 ? position.invested - cost : 0
            }
            book[key] = position
        }
        return book.values.sorted { ($0.exchange.rawValue, $0.market.code) < ($1.exchange.rawValue, $1.market.code) }
    }

    /// Parses a decimal string from outside (`"0.5"`, `"100000000"`): plain digits with at most
    /// one point, no exponent, no sign; nil otherwise (no failing conversion ever traps).
    public static func decimal(_ text: String) -> Decimal? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard (1...40).contains(trimmed.count), trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            trimmed.filter({ $0 == "." }).count <= 1, trimmed != "."
        else { return nil }
        return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// A price from a board (binary floating point) as a decimal: rounded to 8 places, so
    /// `0.1` is 0.1 and not the binary approximation's 0.1000000000000000055….
    public static func decimal(from price: Double) -> Decimal {
        guard price.isFinite else { return 0 }
        var exact = Decimal(price)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 8, .plain)
        return rounded
    }

    /// A decimal as a plain string (`"0.25"`, `"110055000"`), rounded to `scale` places.
    public static func text(_ value: Decimal, scale: Int = 8) -> String {
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, scale, .plain)
        return NSDecimalNumber(decimal: rounded).stringValue
    }
}
