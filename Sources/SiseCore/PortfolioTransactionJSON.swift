import Foundation

/// A transaction as the API, the export and `sise portfolio --json` print it: decimal strings
/// for money and quantities, `at` in epoch ms.
public struct PortfolioTransactionJSON: Codable, Equatable, Sendable {
    public var id: String
    public var type: String
    public var exchange: String
    public var market: String
    public var quantity: String
    public var price: String
    public var fee: String
    public var at: Int64
    /// `at` as Korean users read it (`2026-11-22 09:24:01 KST`); ignored when a file is imported.
    public var when: String?
    public var note: String

    public init(_ t: PortfolioTransaction) {
        id = t.id
        type = t.kind.rawValue
        exchange = t.exchange.rawValue
        market = t.market.code
        quantity = PortfolioLedger.text(t.quantity, scale: 12)
        price = PortfolioLedger.text(t.price, scale: 8)
        fee = PortfolioLedger.text(t.fee, scale: 8)
        at = t.at
        when = KSTText.timestamp(t.at)
        note = t.note
    }

    /// Back to the text a person or script sends (for a JSON import).
    public var input: PortfolioInput {
        PortfolioInput(type: type, exchange: exchange, market: market, quantity: quantity, price: price, fee: fee, at: String(at), note: note)
    }
}
