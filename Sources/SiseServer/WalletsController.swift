import Foundation
import Hummingbird
import SiseCore
import SiseEngine

/// 입출금 현황 as the server's pollers last read it:
///
/// - `GET /api/wallets?exchange=&symbol=&all=` — each exchange's state and message, its wallets
///   (of one coin: every network; otherwise what is shut, or everything with `all=true`) and a
///   summary per coin (`WalletsTable`, at least these keys).
/// - `GET /api/wallets/marks[?exchange=]` — the board's marks, every exchange (or one):
///   `{exchanges: [{exchange, state, message, marks: {SYMBOL: {deposit, withdraw, mark, short}}}]}` for
///   the coins with something shut.
struct WalletsController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/wallets", use: list)
        router.get("/api/wallets/marks", use: marks)
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let language = LanguagePreference.of(request)
        var exchanges = Exchange.allCases
        if let names = query["exchange"].map(String.init), !names.isEmpty {
            let parsed = CommaList.items(names, limit: Exchange.allCases.count)?.map(Exchange.init(name:)) ?? []
            guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) else {
                throw APIError.badParameter(.exchange, .listOf(Exchange.allCases.map(\.rawValue)))
            }
            exchanges = parsed.compactMap { $0 }
        }
        let symbol = try ServerContext.symbol(request)
        let allText = query["all"].map { String($0).lowercased() } ?? "false"
        guard ["true", "false", "1", "0"].contains(allText) else { throw APIError.badParameter(.all, .oneOf(["true", "false"])) }
        var reports: [WalletReport] = []
        for exchange in exchanges {
            // One coin's: its fees too, where an exchange gives them one network at a time.
            if let wallets = context.wallets, let symbol {
                reports.append(await wallets.report(exchange, feesOf: symbol))
            } else if let wallets = context.wallets {
                reports.append(wallets.report(exchange))
            } else {
                reports.append(WalletReport(exchange: exchange, state: .notPublished))
            }
        }
        let table = WalletsTable(
            reports: reports,
            symbol: symbol,
            all: allText == "true" || allText == "1",
            language: language,
            now: context.clock.now
        )
        return JSONText.response(table)
    }

    struct Marks: Encodable {
        struct Mark: Encodable {
            let deposit: WalletSummary.Side
            let withdraw: WalletSummary.Side
            let mark: String?
            /// The few letters a board row has room for (`입출×`).
            let short: String?
        }
        struct OfExchange: Encodable {
            let exchange: Exchange
            let state: WalletReport.State
            let message: String?
            let marks: [String: Mark]
        }
        let exchanges: [OfExchange]
    }

    @Sendable func marks(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let exchanges = request.uri.queryParameters["exchange"] == nil ? Exchange.allCases : [try ServerContext.exchange(request)]
        let language = LanguagePreference.of(request)
        let now = context.clock.now
        let answer = exchanges.map { exchange in
            let report = context.wallets?.report(exchange) ?? WalletReport(exchange: exchange, state: .notPublished)
            let table = WalletsTable(reports: [report], symbol: nil, language: language, now: now)
            let marks = Dictionary(
                table.summaries.map { summary in
                    let words = WalletSummary(deposit: summary.deposit, withdraw: summary.withdraw)
                    return (
                        summary.symbol,
                        Marks.Mark(deposit: summary.deposit, withdraw: summary.withdraw, mark: summary.mark, short: words.shortMark(language))
                    )
                },
                uniquingKeysWith: { first, _ in first }
            )
            return Marks.OfExchange(exchange: exchange, state: report.state, message: table.exchanges.first?.message, marks: marks)
        }
        return JSONText.response(Marks(exchanges: answer))
    }
}
