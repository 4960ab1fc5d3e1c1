import Foundation
import Hummingbird
import SiseCore
import SiseEngine

/// `GET /api/compare?symbols=BTC,ETH&sort=gap|symbol&q=비트`: every coin listed in KRW on at least two
/// exchanges, its live price on each, the dearest and cheapest venue and the gap, from the
/// same live boards (and feeds) as everything else. `q` searches as the board does (names,
/// symbol, 초성).
struct CompareController {
    let context: ServerContext
    static let maxSymbols = 100

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/compare", use: compare)
    }

    @Sendable func compare(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let q = request.uri.queryParameters
        var symbols: Set<String>?
        if let text = q["symbols"].map(String.init), !text.isEmpty {
            guard let list = CommaList.items(text, limit: Self.maxSymbols)?.map({ $0.uppercased() }), list.allSatisfy(CoinTicker.isValid)
            else {
                throw APIError.badParameter(.symbols, .symbolList(Self.maxSymbols))
            }
            symbols = Set(list)
        }
        var sort = CompareBoard.Sort.gap
        if let text = q["sort"].map(String.init), !text.isEmpty {
            guard let parsed = CompareBoard.Sort(rawValue: text.lowercased()) else {
                throw APIError.badParameter(.sort, .oneOf(CompareBoard.Sort.allCases.map(\.rawValue)))
            }
            sort = parsed
        }
        let searched = q["q"].map(String.init) ?? ""
        guard searched.count <= 64 else { throw APIError.badParameter(.search, .atMostCharacters(64)) }
        let search = MarketSearch(searched)
        // Every venue is watched while someone compares: wake them all, wait briefly for data.
        let boards = context.boards.all
        for (_, board) in boards { board.touch() }
        var loaded = 0
        for (_, board) in boards where await board.waitForData(upTo: ServerContext.firstBoardWait) { loaded += 1 }
        guard loaded >= 2 else {
            throw APIError(status: .serviceUnavailable, code: "unavailable", RefusalText.boardsLoading, ["seconds": "1"], retryAfter: 1)
        }
        let formatter = MarketFormatter(language: LanguagePreference.of(request))
        let rows = CompareBoard.rows(context.boards.compareVenues(), symbols: symbols, sort: sort)
            .filter { search.matches(any: [$0.koreanName, $0.englishName, $0.symbol]) }
        let premium = context.premiumInputs.withoutStandIns
        return JSONText.response(rows.map { CompareRowJSON($0, formatter: formatter, premium: premium) })
    }
}
