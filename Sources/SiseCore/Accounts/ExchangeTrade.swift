import Foundation

/// One closed order of a person's exchange account, as its history reads it: what was bought or
/// sold, how much, for how much in all (the quote currency's exact total, so the unit price is
/// never rounded twice), its fee and when — with the exchange's own id, so a sync that reads it
/// again adds it once.
public struct ExchangeTrade: Sendable, Equatable, Codable {
    public enum Side: String, Sendable, Codable { case buy, sell }

    public var exchange: Exchange
    /// The exchange's id of the order (Upbit's and Bithumb's `uuid`).
    public var id: String
    public var market: MarketID
    public var side: Side
    /// Filled, in the coin.
    public var quantity: Decimal
    /// Paid or received for it in all, in the market's quote currency.
    public var funds: Decimal
    /// In the quote currency.
    public var fee: Decimal
    /// When the order was made, epoch ms (the exchange's history is filtered on it).
    public var at: Int64

    public init(exchange: Exchange, id: String, market: MarketID, side: Side, quantity: Decimal, funds: Decimal, fee: Decimal, at: Int64) {
        self.exchange = exchange
        self.id = id
        self.market = market
        self.side = side
        self.quantity = quantity
        self.funds = funds
        self.fee = fee
        self.at = at
    }

    /// The portfolio's id of the trade for `owner`: the exchange, its own id and a mark of the
    /// owner (`upbit-order-<uuid>-<8 hex>`) — transaction ids are unique across owners, and two
    /// of Sise's accounts may read one exchange account.
    public func transactionID(owner: String) -> String { Self.idPrefix(exchange) + id + "-" + Self.mark(owner) }

    /// 32 bits of FNV-1a over the owner, in hex: the same on every machine and run.
    static func mark(_ owner: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in owner.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    static func idPrefix(_ exchange: Exchange) -> String { exchange.rawValue + "-order-" }

    /// Whether a portfolio transaction's id is a synced trade's.
    public static func isSynced(_ id: String) -> Bool { Exchange.allCases.contains { id.hasPrefix(idPrefix($0)) } }

    /// Whether it is one synced from `exchange`.
    public static func isSynced(_ id: String, from exchange: Exchange) -> Bool { id.hasPrefix(idPrefix(exchange)) }

    /// The trade as `owner`'s portfolio transaction (the unit price `funds / quantity`, to 12
    /// places); nil for an order that filled nothing.
    public func transaction(owner: String) -> PortfolioTransaction? {
        guard quantity > 0 else { return nil }
        var exact = funds / quantity
        var price = Decimal()
        NSDecimalRound(&price, &exact, 12, .plain)
        return PortfolioTransaction(
            id: transactionID(owner: owner),
            kind: side == .buy ? .buy : .sell,
            exchange: exchange,
            market: market,
            quantity: quantity,
            price: price,
            fee: fee,
            at: at,
            note: exchange.displayName + " " + id
        )
    }
}
