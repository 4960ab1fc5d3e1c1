import Foundation
import SiseCore

/// What a favorite points at: a market of an exchange (`KRW-BTC` on Upbit, `korbit:KRW-BTC`)
/// or a CoinGecko coin (`bitcoin`, `shiba-inu`, exchange-free). Typed, so an id with a hyphen
/// is never mistaken for a market. Favorites stored before there were three exchanges are
/// Upbit's, as they always were.
public enum FavoriteItem: Hashable, Sendable {
    /// Upper-case `QUOTE-BASE` of a quote Sise shows, on an exchange.
    case market(String, Exchange = .default)
    /// CoinGecko's id syntax: lower-case ASCII letters, digits, `-`, `_`, `.`.
    case coin(String)

    public static let quotes: Set<String> = ["KRW", "BTC", "USDT"]
    public static let maxCoinIDLength = 64
    public static let maxBaseLength = 20

    /// The first reading of `raw` (a market before a coin); nil when it is neither.
    public init?(_ raw: String) {
        guard let first = Self.readings(raw).first else { return nil }
        self = first
    }

    /// Every way `raw` can be read, market first: `krw-btc` may be the market KRW-BTC or a coin
    /// id, and only the listing can tell (`shiba-inu` is only a coin; `KRW-BTC` only a market).
    public static func readings(_ raw: String) -> [FavoriteItem] {
        var text = raw.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, text.utf8.count <= 100, text.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return [] }
        // `korbit:KRW-BTC`: a market of another exchange (only a market can carry one).
        if let colon = text.firstIndex(of: ":") {
            guard let exchange = Exchange(name: String(text[..<colon])) else { return [] }
            text = String(text[text.index(after: colon)...])
            // One prefix: the rest is read without one (no recursion the sender can deepen).
            guard !text.contains(":") else { return [] }
            return readings(text).compactMap { reading in
                if case .market(let code, _) = reading { return .market(code, exchange) }
                return nil
            }
        }
        var found: [FavoriteItem] = []
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 2, quotes.contains(parts[0].uppercased()), (1...maxBaseLength).contains(parts[1].count),
            parts[1].allSatisfy({ $0.isLetter || $0.isNumber })
        {
            found.append(.market(text.uppercased()))
        }
        if text.count <= maxCoinIDLength, let first = text.first, first.isLetter || first.isNumber,
            text.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
        {
            found.append(.coin(text))
        }
        return found
    }

    /// The exchange of a market; nil for a coin.
    public var exchange: Exchange? {
        if case .market(_, let exchange) = self { return exchange }
        return nil
    }

    /// The same market on `exchange` (a coin stays a coin).
    public func on(_ exchange: Exchange) -> FavoriteItem {
        if case .market(let code, _) = self { return .market(code, exchange) }
        return self
    }

    /// How it is stored and shown: `KRW-BTC`, `korbit:KRW-BTC` or `shiba-inu`.
    public var key: String {
        switch self {
        case .market(let code, let exchange): exchange == .default ? code : "\(exchange.rawValue):\(code)"
        case .coin(let id): id
        }
    }

    public var kind: String {
        switch self {
        case .market: "market"
        case .coin: "coin"
        }
    }

    /// The stored form of `raw` (its first reading), or nil when it cannot be a favorite.
    public static func normalize(_ raw: String) -> String? {
        FavoriteItem(raw)?.key
    }
}
