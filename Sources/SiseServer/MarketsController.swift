import Foundation
import Hummingbird
import SiseCore
import SiseEngine

/// `GET /api/markets` and `GET /api/markets/{market}`: board rows, the same keys as
/// `sise markets --json`.
struct MarketsController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/markets", use: list)
        router.get("/api/markets/:market", use: one)
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let q = request.uri.queryParameters
        let view = try ViewParameters(
            quote: q["quote"].map(String.init),
            sort: q["sort"].map(String.init),
            order: q["order"].map(String.init),
            q: q["q"].map(String.init),
            favorites: q["favorites"].map(String.init),
            exchange: q["exchange"].map(String.init),
            venue: q["venue"].map(String.init)
        )
        let language = LanguagePreference.of(request)
        do { try MarketListing.check(quote: view.quote, on: view.exchange) } catch { throw APIError.listing(error) }
        try await context.requireBoard(view.exchange)
        let favorites = view.favoritesOnly ? try await context.favoriteMarkets(ctx.owner, exchange: view.exchange) : nil
        let premium = context.premiumInputs(view.venue, exchange: view.exchange)
        let rows = view.query(favorites: favorites, language: language).apply(try context.board(view.exchange).snapshot.rows.values, premium: premium)
        let formatter = MarketFormatter(language: language)
        return JSONText.response(rows.map { MarketRowJSON($0, formatter: formatter, premium: premium.premium($0)) })
    }

    @Sendable func one(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let raw = ctx.parameters.get("market") ?? ""
        guard let id = MarketID(raw) else { throw APIError.badParameter(.market, .marketCode) }
        let exchange = try ServerContext.exchange(request)
        let venue = try ServerContext.venue(request)
        let language = LanguagePreference.of(request)
        try await context.requireBoard(exchange)
        try context.requireListed(id, on: exchange)
        guard let row = try context.board(exchange).snapshot.rows[id] else { throw APIError.listing(.unlisted([id.code])) }
        return JSONText.response(
            MarketRowJSON(
                row,
                formatter: MarketFormatter(language: language),
                premium: context.premiumInputs(venue, exchange: exchange).premium(row)
            )
        )
    }
}

/// `?lang=en`, then the `sise_lang` cookie, then `Accept-Language`; Korean by default.
enum LanguagePreference {
    static func of(_ request: Request) -> Language {
        if let lang = request.uri.queryParameters["lang"].flatMap({ Language(rawValue: String($0)) }) { return lang }
        if let cookie = request.cookies["sise_lang"]?.value, let lang = Language(rawValue: cookie) { return lang }
        return Language(preference: request.headers[.acceptLanguage])
    }
}
