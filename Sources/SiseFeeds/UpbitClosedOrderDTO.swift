import Foundation
import SiseCore

/// A row of the v1 family's `GET /v1/orders/closed` (Upbit, Bithumb): an order that ended
/// (`done`, or `cancel` — a market buy that filled ends cancelled with its dust), what of it
/// filled, for how much (`executed_funds`; an older answer without it is filled in from the
/// order's own trades) and the fee paid. Figures decimal strings, read exactly.
public struct UpbitClosedOrderDTO: Decodable, Sendable, Equatable {
    public let uuid: String
    public let side: String
    public let market: String
    public let createdAt: String
    public let executedVolume: Decimal
    public let executedFunds: Decimal?
    public let paidFee: Decimal

    enum Keys: String, CodingKey {
        case uuid, side, market
        case createdAt = "created_at"
        case executedVolume = "executed_volume"
        case executedFunds = "executed_funds"
        case paidFee = "paid_fee"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        uuid = try c.decode(String.self, forKey: .uuid)
        side = try c.decode(String.self, forKey: .side)
        market = try c.decode(String.self, forKey: .market)
        createdAt = try c.decode(String.self, forKey: .createdAt)
        executedVolume = try c.exactDecimal(forKey: .executedVolume)
        executedFunds = try c.exactDecimalIfPresent(forKey: .executedFunds)
        paidFee = try c.exactDecimalIfPresent(forKey: .paidFee) ?? 0
    }

    /// The trade, given its funds (nil: a market or side Sise does not read, a time it cannot).
    func trade(on exchange: Exchange, funds: Decimal) -> ExchangeTrade? {
        guard uuid.utf8.count <= 100, let market = MarketID(market), let at = ExactTime.milliseconds(iso: createdAt) else { return nil }
        let side: ExchangeTrade.Side
        switch self.side {
        case "bid": side = .buy
        case "ask": side = .sell
        default: return nil
        }
        return ExchangeTrade(exchange: exchange, id: uuid, market: market, side: side, quantity: executedVolume, funds: funds, fee: paidFee, at: at)
    }
}

/// `GET /v1/order?uuid=`: the order's trades, whose funds add up to what it filled for.
struct UpbitOrderTradesDTO: Decodable, Sendable {
    struct Trade: Decodable, Sendable {
        let funds: Decimal

        enum Keys: String, CodingKey { case funds }

        init(from decoder: any Decoder) throws {
            funds = try decoder.container(keyedBy: Keys.self).exactDecimal(forKey: .funds)
        }
    }

    let trades: [Trade]
}
