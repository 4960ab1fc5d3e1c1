/// Why a market someone named cannot be shown, decided once for every face: the CLI exits 2
/// with `message`, the API answers 400 (`badQuote`, `notAMarket`) or 404 (`unlisted`) with it.
public enum ListingProblem: Error, Equatable, Sendable {
    /// The exchange has no board in that quote (Korbit: KRW only).
    case badQuote(Exchange, QuoteCurrency)
    /// The text names no market at all (`KRW-`, `a b`, a quote Sise does not show).
    case notAMarket(String)
    /// Markets the exchange does not list now — unknown, delisted or stopped.
    case unlisted([String])

    public func message(_ language: Language) -> String {
        switch self {
        case .badQuote(let exchange, let quote):
            UIText.exchangeHasNoQuote(
                language,
                [
                    "exchange": exchange.displayName, "quote": quote.rawValue,
                    "quotes": exchange.quotes.map(\.rawValue).joined(separator: ", "),
                ]
            )
        case .notAMarket(let text): UIText.notAMarket(language, ["text": String(text.prefix(40))])
        case .unlisted(let names): UIText.unknownSymbol(language, ["list": names.map { String($0.prefix(40)) }.joined(separator: ", ")])
        }
    }

    /// Whether the market is simply not there (HTTP 404) rather than asked for wrongly (400).
    public var isUnlisted: Bool {
        if case .unlisted = self { return true }
        return false
    }
}

/// What an exchange lists now, and the one rule every face uses to turn what a person typed into
/// a market of it: `price`, `coin`, `candles`, `premium`, `compare`, alerts and favorites, on the
/// CLI and the API alike. A market of a quote the exchange lacks is `badQuote`, one it does not
/// list (or has stopped) is `unlisted`.
public struct MarketListing: Sendable {
    public let exchange: Exchange
    public let listed: Set<MarketID>

    public init(exchange: Exchange, listed: some Sequence<MarketID>) {
        self.exchange = exchange
        self.listed = Set(listed)
    }

    public init(exchange: Exchange, markets: [Market]) {
        self.init(exchange: exchange, listed: markets.map(\.id))
    }

    /// The quote must be one the exchange has.
    public static func check(quote: QuoteCurrency, on exchange: Exchange) throws(ListingProblem) {
        guard exchange.quotes.contains(quote) else { throw .badQuote(exchange, quote) }
    }

    /// The market named by `text` (`BTC` is the symbol on `quote`), listed on the exchange.
    public func market(_ text: String, quote: QuoteCurrency = .krw) throws(ListingProblem) -> MarketID {
        guard let id = MarketID.resolve(text, quote: quote) else { throw .notAMarket(text) }
        try check(id)
        return id
    }

    /// `id` is listed on the exchange, in a quote it has.
    public func check(_ id: MarketID) throws(ListingProblem) {
        if let quote = QuoteCurrency(code: id.quote) { try Self.check(quote: quote, on: exchange) }
        guard listed.contains(id) else { throw .unlisted([id.code]) }
    }

    /// Every market named, each once, in order; all the unlisted ones named in one problem.
    public func markets(_ texts: [String], quote: QuoteCurrency = .krw) throws(ListingProblem) -> [MarketID] {
        var ids: [MarketID] = []
        var unknown: [String] = []
        for text in texts {
            do {
                let id = try market(text, quote: quote)
                if !ids.contains(id) { ids.append(id) }
            } catch .unlisted {
                unknown.append(text.trimmingCharacters(in: .whitespaces))
            } catch .notAMarket {
                unknown.append(text.trimmingCharacters(in: .whitespaces))
            } catch {
                throw error
            }
        }
        guard unknown.isEmpty else { throw .unlisted(unknown) }
        return ids
    }
}
