import Foundation
import SiseCore

/// A row of Upbit's `GET /v1/accounts` (a read-only key's balances): what is held and what is
/// locked in orders, and Upbit's own average buy price (`avg_buy_price_modified`: the person
/// changed it by hand in the app). Every figure is a decimal string, read exactly; a row that
/// is not a plain decimal is refused, never read as 0.
public struct UpbitAccountDTO: Decodable, Sendable, Equatable {
    public let currency: String
    public let balance: Decimal
    public let locked: Decimal
    public let averageBuyPrice: Decimal
    public let averageBuyPriceModified: Bool
    /// The currency the average is in (`KRW`).
    public let unitCurrency: String

    enum Keys: String, CodingKey {
        case currency, balance, locked
        case averageBuyPrice = "avg_buy_price"
        case averageBuyPriceModified = "avg_buy_price_modified"
        case unitCurrency = "unit_currency"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        currency = try c.decode(String.self, forKey: .currency)
        unitCurrency = try c.decode(String.self, forKey: .unitCurrency)
        averageBuyPriceModified = try c.decodeIfPresent(Bool.self, forKey: .averageBuyPriceModified) ?? false
        balance = try c.exactDecimal(forKey: .balance)
        locked = try c.exactDecimal(forKey: .locked)
        averageBuyPrice = try c.exactDecimal(forKey: .averageBuyPrice)
    }

    /// Held in all: free and locked in orders.
    public var total: Decimal { balance + locked }
}
