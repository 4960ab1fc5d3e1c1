import Foundation
import Hummingbird
import SiseCore

/// `GET /api/notices?exchange=&symbol=&kind=&limit=`: the exchanges' latest notices (listings,
/// delistings, maintenance, wallets), newest change first, each with the coins its title names.
struct NoticesController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/notices", use: list)
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let symbol = try ServerContext.symbol(request)
        var kind: NoticeKind?
        if let text = query["kind"].map(String.init), !text.isEmpty {
            guard let parsed = NoticeKind(rawValue: text) else { throw APIError.badParameter(.kind, .oneOf(NoticeKind.allCases.map(\.rawValue))) }
            kind = parsed
        }
        var limit = 50
        if let text = query["limit"].map(String.init) {
            guard let value = Int(text), (1...100).contains(value) else { throw APIError.badParameter(.limit, .between(1, 100)) }
            limit = value
        }
        let exchange = query["exchange"] == nil ? nil : try ServerContext.exchange(request)
        let language = LanguagePreference.of(request)
        var table =
            context.notices?.table(symbol: symbol, kind: kind, limit: 100, language: language)
            ?? NoticesTable(sources: [], notices: [], symbol: nil, kind: nil, limit: 1, language: language)
        if let exchange {
            table.exchanges = table.exchanges.filter { $0.exchange == exchange }
            table.notices = table.notices.filter { $0.exchange == exchange }
        }
        table.notices = Array(table.notices.prefix(limit))
        return JSONText.response(table)
    }
}
