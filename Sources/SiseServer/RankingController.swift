import Foundation
import Hummingbird
import SiseCharts
import SiseCore
import SiseEngine

/// `GET /api/ranking` and `GET /api/global`: CoinGecko's market-cap ranking and the whole
/// market, through the shared cache and budget (a thousand viewers cost what one does).
struct RankingController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/ranking", use: ranking)
        router.get("/api/global", use: global)
    }

    /// A ranking page: the rows (the public row keys, plus a 7-day sparkline as SVG), the sort,
    /// and the sort each header leads to.
    struct PageView: Encodable, Sendable {
        struct Row: Encodable, Sendable {
            let row: RankingRow
            let sparkline: String
            enum Keys: String, CodingKey { case sparkline }
            func encode(to encoder: any Encoder) throws {
                try RankingRowJSON(row).encode(to: encoder)
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(sparkline, forKey: .sparkline)
            }
        }
        struct Sort: Encodable, Sendable {
            let sort: String
            let order: String
            init(_ sort: RankingSort) {
                self.sort = sort.key.rawValue
                order = sort.direction.spelling
            }
        }
        let currency: RankingCurrency
        let page: Int
        let perPage: Int
        let sort: Sort
        let next: [String: Sort]
        let rows: [Row]
    }

    @Sendable func ranking(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let language = LanguagePreference.of(request)
        let asked: RankingRequest
        do {
            asked = try RankingRequest(
                page: query["page"].map(String.init),
                perPage: query["perPage"].map(String.init),
                currency: query["currency"].map(String.init),
                sort: query["sort"].map(String.init),
                order: query["order"].map(String.init),
                q: query["q"].map(String.init)
            )
        } catch {
            throw APIError.refused(error)
        }
        let client = ctx.clientIdentities
        let cached = try await CoinInfoController.upstream(request) {
            try await context.coinInfo.ranking(currency: asked.currency, blocks: asked.blocks, client: client)
        }
        let favorites = Set((try? await context.favorites.list(owner: ctx.owner)) ?? [])
        let listings = context.boards.koreanListings
        // Each listed coin's premium on the board it links to.
        let inputs = context.premiumInputs.withoutStandIns
        var premiums: [String: Double] = [:]
        for (symbol, listing) in listings {
            if let row = context.boards[listing.exchange]?.snapshot.rows[listing.market], let premium = inputs.premium(row) {
                premiums[symbol] = premium
            }
        }
        let page = asked.page(cached.value, listings: listings, favorites: favorites, premiums: premiums, language: language)
        let view = PageView(
            currency: page.currency,
            page: page.page,
            perPage: page.perPage,
            sort: .init(page.sort),
            next: Dictionary(uniqueKeysWithValues: page.next.map { ($0.key.rawValue, PageView.Sort($0.value)) }),
            rows: page.rows.map { PageView.Row(row: $0, sparkline: SVGChart.sparkline($0.coin.sparkline)) }
        )
        return JSONText.response(
            CoinInfoController.Fresh(
                CoinInfoService.Cached(
                    value: view,
                    fetchedAt: cached.fetchedAt,
                    stale: cached.stale,
                    retryAt: cached.retryAt
                ),
                language: language
            )
        )
    }

    @Sendable func global(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let text = request.uri.queryParameters["currency"].map(String.init) ?? "krw"
        guard let currency = RankingCurrency(rawValue: text.lowercased()) else {
            throw APIError.badParameter(.currency, .oneOf(RankingCurrency.allCases.map(\.rawValue)))
        }
        let cached = try await CoinInfoController.upstream(request) { try await context.coinInfo.global() }
        let view = GlobalMarketJSON(cached.value, currency: currency, language: language)
        return JSONText.response(
            CoinInfoController.Fresh(
                CoinInfoService.Cached(
                    value: view,
                    fetchedAt: cached.fetchedAt,
                    stale: cached.stale,
                    retryAt: cached.retryAt
                ),
                language: language
            )
        )
    }
}
