import Foundation
import SiseCore

/// A board view as the API and the WebSocket spell it: `quote`, `sort`, `order`, `q`,
/// `favorites` / `favoritesOnly`. Bad values are a 400 that names the parameter.
struct ViewParameters: Sendable, Hashable {
    var quote: QuoteCurrency = .krw
    var sort: SortState = .default
    var search: String = ""
    var favoritesOnly = false
    var exchange: Exchange = .default
    /// The global venue the 김프 column (and its sort) measures against.
    var venue: GlobalVenue = .binance

    static let maxSearchLength = 100

    init() {}

    init(quote: String?, sort: String?, order: String?, q: String?, favorites: String?, exchange: String? = nil, venue: String? = nil) throws {
        if let exchange, !exchange.isEmpty {
            guard let parsed = Exchange(name: exchange) else { throw APIError.badParameter(.exchange, .exchanges) }
            self.exchange = parsed
        }
        if let venue, !venue.isEmpty {
            guard let parsed = GlobalVenue(name: venue) else { throw APIError.badParameter(.venue, .oneOf(GlobalVenue.allCases.map(\.rawValue))) }
            self.venue = parsed
        }
        if let quote {
            guard let parsed = QuoteCurrency(code: quote) else { throw APIError.badParameter(.quote, .oneOf(QuoteCurrency.allCases.map(\.rawValue))) }
            self.quote = parsed
        }
        let key: SortKey?
        if let sort, !sort.isEmpty {
            guard let parsed = SortKey(rawValue: sort.lowercased()) else {
                throw APIError.badParameter(.sort, .oneOf(SortKey.allCases.map(\.rawValue)))
            }
            key = parsed
        } else {
            key = nil
        }
        var direction: SortDirection?
        if let order, !order.isEmpty {
            guard let parsed = SortDirection(spelling: order) else {
                throw APIError.badParameter(.order, .oneOf(SortDirection.choices))
            }
            direction = parsed
        }
        self.sort = SortState.requested(key: key, direction: direction)
        if let q {
            guard q.count <= Self.maxSearchLength else { throw APIError.badParameter(.search, .atMostCharacters(Self.maxSearchLength)) }
            search = q
        }
        if let favorites {
            switch favorites.lowercased() {
            case "true", "1", "yes": favoritesOnly = true
            case "false", "0", "no", "": favoritesOnly = false
            default: throw APIError.badParameter(.favoritesOnly, .oneOf(["true", "false"]))
            }
        }
    }

    func query(favorites: Set<MarketID>?, language: Language) -> BoardQuery {
        BoardQuery(quote: quote, sort: sort, search: search, favorites: favoritesOnly ? (favorites ?? []) : nil, language: language)
    }
}
