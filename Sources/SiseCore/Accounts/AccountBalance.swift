import Foundation

/// One currency an exchange account holds, as the exchange reports it (a read-only key's
/// balances): what is free and what is locked in orders or withdrawals, and the exchange's own
/// average buy price where it keeps one. Exact decimals throughout.
public struct AccountBalance: Sendable, Equatable, Codable {
    public var exchange: Exchange
    /// The currency's code as Sise writes it (upper case: `BTC`, `KRW`).
    public var currency: String
    /// Free to trade or withdraw.
    public var balance: Decimal
    /// Held by open orders or pending withdrawals.
    public var locked: Decimal
    /// The exchange's own average buy price, in `unitCurrency`; nil where it keeps none (and for
    /// cash, whose `"0"` is not a cost).
    public var averageBuyPrice: Decimal?
    /// The person (or the exchange) changed the average by hand: not a cost basis for tax.
    public var averageModified: Bool
    /// The currency the average is in (`KRW` for coins bought on KRW markets).
    public var unitCurrency: String

    public init(
        exchange: Exchange,
        currency: String,
        balance: Decimal,
        locked: Decimal,
        averageBuyPrice: Decimal?,
        averageModified: Bool = false,
        unitCurrency: String = "KRW"
    ) {
        self.exchange = exchange
        self.currency = currency.uppercased()
        self.balance = balance
        self.locked = locked
        // Exchanges send cash's average as "0", and a coin's 0 (an airdrop, a deposit) is no cost either.
        self.averageBuyPrice = currency.uppercased() == "KRW" || averageBuyPrice == 0 ? nil : averageBuyPrice
        self.averageModified = averageModified
        self.unitCurrency = unitCurrency.uppercased()
    }

    /// Held in all: free and locked.
    public var total: Decimal { balance + locked }

    /// Korean won itself, not a coin.
    public var isCash: Bool { currency == "KRW" }
}
