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

/// What a coin argument names, decided once (`sise coin`, `/api/coins/{id}`): upper case
/// (`BTC`, `KRW-BTC`) is an exchange market — a bare symbol on KRW —, anything else a CoinGecko
/// id (`bitcoin`, `usd-coin`).
public enum CoinReference: Equatable, Sendable {
    case market(MarketID)
    case coinGecko(String)

    public init(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed == trimmed.uppercased(), let id = MarketID.resolve(trimmed, quote: .krw) {
            self = .market(id)
        } else {
            self = .coinGecko(trimmed)
        }
    }

    /// The id the coin-detail API takes: the market code, or the CoinGecko id.
    public var id: String {
        switch self {
        case .market(let id): id.code
        case .coinGecko(let id): id
        }
    }
}
