import Foundation
import Hummingbird
import SiseCore
import SiseStore

/// `GET /api/events?exchange=&symbol=&kind=&before=&limit=`: the history of every change —
/// listings, flags, wallets — newest first, with the coin's price then and later. `kind` takes
/// event kinds (`depositSuspended`) or their aspects (`listing`, `flag`, `deposit`, `withdraw`),
/// comma-separated; `before` an event's id (the next page).
struct EventsController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/events", use: list)
    }

    /// The largest id a page asks from (JavaScript's largest exact integer).
    static let largestID: Int64 = 9_007_199_254_740_991

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let symbol = try ServerContext.symbol(request)
        var kinds: Set<MarketEvent.Kind> = []
        if let text = query["kind"].map(String.init), !text.isEmpty {
            guard text.utf8.count <= 400, let parsed = MarketEvent.Kind.filter(text) else {
                throw APIError.badParameter(.kind, .listOf(MarketEvent.Kind.filterWords))
            }
            kinds = parsed
        }
        var before: Int64?
        if let text = query["before"].map(String.init), !text.isEmpty {
            guard let value = Int64(text), (1...Self.largestID).contains(value) else {
                throw APIError.badParameter(.before, .between(1, Int(Self.largestID)))
            }
            before = value
        }
        var limit = 50
        if let text = query["limit"].map(String.init) {
            guard let value = Int(text), (1...200).contains(value) else { throw APIError.badParameter(.limit, .between(1, 200)) }
            limit = value
        }
        let exchange = query["exchange"] == nil ? nil : try ServerContext.exchange(request)
        let events = try await context.events?.events(exchange: exchange, symbol: symbol, kinds: kinds, before: before, limit: limit) ?? []
        var since = try await context.events?.since() ?? [:]
        if let exchange { since = since.filter { $0.key == exchange } }
        return JSONText.response(MarketEventsTable(events: events, now: context.clock.now, language: LanguagePreference.of(request), since: since))
    }
}
