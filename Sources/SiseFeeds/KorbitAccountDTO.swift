import Foundation
import SiseCore

/// Korbit v2's private rows: a row of `GET /v2/balance` (`balance = available + tradeInUse +
/// withdrawalInUse`; lower-case currencies; every figure a decimal string, read exactly) and
/// the key's own description, `GET /v2/currentKeyInfo`, whose permissions say whether it may
/// trade or withdraw.
public struct KorbitBalanceDTO: Decodable, Sendable, Equatable {
    public let currency: String
    public let available: Decimal
    public let tradeInUse: Decimal
    public let withdrawalInUse: Decimal
    /// Korbit's average buy price in KRW (nil or 0 where it keeps none).
    public let averagePrice: Decimal?

    enum Keys: String, CodingKey {
        case currency, available, tradeInUse, withdrawalInUse
        case averagePrice = "avgPrice"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        currency = try c.decode(String.self, forKey: .currency).uppercased()
        available = try c.exactDecimal(forKey: .available)
        tradeInUse = try c.exactDecimalIfPresent(forKey: .tradeInUse) ?? 0
        withdrawalInUse = try c.exactDecimalIfPresent(forKey: .withdrawalInUse) ?? 0
        averagePrice = try c.exactDecimalIfPresent(forKey: .averagePrice)
    }

    func balance(on exchange: Exchange) -> AccountBalance {
        AccountBalance(
            exchange: exchange,
            currency: currency,
            balance: available,
            locked: tradeInUse + withdrawalInUse,
            averageBuyPrice: averagePrice
        )
    }
}

/// `GET /v2/currentKeyInfo`: the permissions the key was made with (`readBalances`,
/// `readOrders` …; any `write…` one trades or withdraws).
struct KorbitKeyInfoDTO: Decodable, Sendable {
    var permissions: [String]?

    var tradesOrWithdraws: Bool { (permissions ?? []).contains { $0.lowercased().hasPrefix("write") } }
}
