import Foundation

extension MarketID {
    /// How a person names a market, decided once for every command: a code (`KRW-BTC`,
    /// `krw-btc`, `BTC-ETH`) names itself; a bare symbol (`BTC`) is that asset on `quote`.
    /// Nil for anything else, or a quote Sise does not show.
    public static func resolve(_ text: String, quote: QuoteCurrency) -> MarketID? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let id = trimmed.contains("-") ? MarketID(trimmed) : MarketID("\(quote.rawValue)-\(trimmed)")
        guard let id, QuoteCurrency(code: id.quote) != nil else { return nil }
        return id
    }
}
