import Foundation
import Hummingbird
import SiseCore
import SiseEngine

/// `GET /api/premium/matrix?venue=&exchange=&sort=premium|value&column=&order=&symbols=&limit=`: every KRW
/// coin × every Korean exchange × every global venue (or those named, comma-separated), at the
/// rate the one FX rule decides. Reading it is a look: the venues' pollers and the boards run
/// while someone does.
struct PremiumMatrixController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/premium/matrix", use: matrix)
    }

    @Sendable func matrix(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let query = try Self.query(request.uri.queryParameters)
        var korean: [Exchange: [String: PremiumMatrix.Leg]] = [:]
        var names: [String: String] = [:]
        let shown = Exchange.byShare.filter(query.exchanges.contains).compactMap { exchange in context.boards[exchange].map { (exchange, $0) } }
        // Every board woken at once, each waited for (briefly) side by side.
        await withTaskGroup(of: Void.self) { group in
            for (_, board) in shown {
                board.touch()
                group.addTask { _ = await board.waitForData(upTo: ServerContext.firstBoardWait) }
            }
        }
        for (exchange, board) in shown {
            let snapshot = board.snapshot
            var legs: [String: PremiumMatrix.Leg] = [:]
            for row in snapshot.rows(quote: .krw) {
                guard let at = snapshot.confirmedAt(row.id) else { continue }
                legs[row.id.base] = PremiumMatrix.Leg(price: row.ticker.price, at: at, tradeValue24h: row.ticker.tradeValue24h)
                if names[row.id.base] == nil { names[row.id.base] = row.market.name(in: language) }
            }
            korean[exchange] = legs
        }
        let quotes = context.globalPrices?.quotes() ?? [:]
        let decision = context.premium?.status.decision ?? FXDecision(chosen: nil, quote: nil)
        let rows = PremiumMatrix.rows(korean: korean, venues: quotes, fx: decision.quote, now: context.clock.now)
        var states: [GlobalVenue: (state: String, at: Int64?, problem: Words?)] = [:]
        for venue in query.venues {
            if let status = context.globalPrices?.status(venue) {
                states[venue] = (status.state, status.at, status.problem)
            } else {
                states[venue] = ("off", nil, nil)
            }
        }
        let table = PremiumMatrixTable(rows: rows, query: query, decision: decision, venueStates: states, names: names, language: language)
        return JSONText.response(table)
    }

    /// The query's parameters, each refused in words when it is not what it must be.
    static func query(_ parameters: some Sequence<(key: Substring, value: Substring)>) throws -> PremiumMatrixQuery {
        var query = PremiumMatrixQuery()
        for (key, rawValue) in parameters {
            let value = String(rawValue)
            switch key {
            case "venue":
                let venues = CommaList.items(value, limit: GlobalVenue.allCases.count)?.map(GlobalVenue.init(name:)) ?? []
                let list = venues.compactMap { $0 }
                guard !venues.isEmpty, list.count == venues.count else {
                    throw APIError.badParameter(.venue, .listOf(GlobalVenue.allCases.map(\.rawValue)))
                }
                query.venues = list
            case "exchange":
                let exchanges = CommaList.items(value, limit: Exchange.allCases.count)?.map(Exchange.init(name:)) ?? []
                let list = exchanges.compactMap { $0 }
                guard !exchanges.isEmpty, list.count == exchanges.count else {
                    throw APIError.badParameter(.exchange, .listOf(Exchange.allCases.map(\.rawValue)))
                }
                query.exchanges = list
            case "column":
                guard let exchange = Exchange(name: value) else { throw APIError.badParameter(.exchange, .exchanges) }
                query.sortExchange = exchange
            case "sort":
                guard ["premium", "value"].contains(value) else { throw APIError.badParameter(.sort, .oneOf(["premium", "value"])) }
                query.sortByPremium = value == "premium"
            case "order":
                guard ["asc", "desc"].contains(value) else { throw APIError.badParameter(.order, .oneOf(["asc", "desc"])) }
                query.descending = value == "desc"
            case "limit":
                guard let limit = Int(value), (1...PremiumMatrixQuery.maxLimit).contains(limit) else {
                    throw APIError.badParameter(.limit, .between(1, PremiumMatrixQuery.maxLimit))
                }
                query.limit = limit
            case "symbols":
                guard let symbols = CommaList.items(value.uppercased(), limit: 100), symbols.allSatisfy(CoinTicker.isValid) else {
                    throw APIError.badParameter(.symbols, .symbolList(100))
                }
                query.symbols = Set(symbols)
            default:
                continue
            }
        }
        return query
    }
}
