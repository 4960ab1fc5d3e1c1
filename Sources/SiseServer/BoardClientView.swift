import Foundation
import SiseCore

/// What one browser asked to see, resolved: the parameters, its language and, for
/// favorites-only views, the device's favorite markets. Equal views share one computation.
struct BoardClientView: Hashable, Sendable {
    var parameters: ViewParameters
    var language: Language
    var favorites: Set<MarketID>?

    var query: BoardQuery { parameters.query(favorites: favorites, language: language) }

    static func parse(_ text: String, fallbackLanguage: Language) throws -> (ViewParameters, Language) {
        guard text.utf8.count <= 4_096, let message = try? JSONDecoder().decode(BoardSocketMessage.View.self, from: Data(text.utf8)) else {
            throw APIError.badParameter(.view, .shapedLike(#"{"type":"view",…}"#))
        }
        let parameters = try ViewParameters(
            quote: message.quote,
            sort: message.sort,
            order: message.order,
            q: message.q,
            favorites: message.favoritesOnly.map { $0 ? "true" : "false" },
            exchange: message.exchange,
            venue: message.venue
        )
        return (parameters, message.lang.flatMap(Language.init(rawValue:)) ?? fallbackLanguage)
    }
}
