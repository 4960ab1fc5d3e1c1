import Foundation
import Hummingbird
import SiseCore
import SiseEngine
import SiseStore

/// The owner's portfolio: transactions in, positions and P&L at live prices out.
struct PortfolioController {
    let context: ServerContext
    let store: PortfolioStore
    /// Told when an owner's transactions change, so its open pages follow.
    let changed: @Sendable (String) async -> Void

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/portfolio", use: report)
        router.get("/api/portfolio/transactions", use: list)
        router.post("/api/portfolio/transactions", use: add)
        router.delete("/api/portfolio/transactions/{id}", use: remove)
        router.get("/api/portfolio/export", use: export)
        router.post("/api/portfolio/import", use: importFile)
    }

    struct Transactions: Encodable {
        let transactions: [PortfolioTransactionJSON]
    }

    /// `imported`: transactions added; `skipped`: the file's trades the owner already had;
    /// `message`: both in the reader's words.
    struct Imported: Encodable {
        let imported: Int
        let skipped: Int
        let message: String
    }

    @Sendable func report(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(try await Self.report(of: ctx.owner, store: store, boards: context.boards))
    }

    static func report(of owner: String, store: PortfolioStore, boards: ExchangeBoards) async throws -> PortfolioReport {
        do { return try boards.portfolio(try await store.transactions(owner: owner)) } catch let problem as PortfolioLedger.Problem {
            throw StoreError.ledger(problem)
        }
    }

    /// The list the page shows: each transaction with its coin's names and grouped figures.
    struct Rows: Encodable {
        let transactions: [PortfolioTransactionRow]
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let boards = context.boards
        let transactions = try await store.transactions(owner: ctx.owner)
        // The names come from the boards: wake each exchange's (a moment for a board not yet loaded).
        await withTaskGroup(of: Void.self) { group in
            for exchange in Set(transactions.map(\.exchange)) {
                guard let board = boards[exchange] else { continue }
                board.touch()
                group.addTask { _ = await board.waitForData(upTo: ServerContext.firstBoardWait) }
            }
        }
        let rows = transactions.map { t in
            PortfolioTransactionRow(t, market: boards[t.exchange]?.snapshot.rows[t.market]?.market)
        }
        return JSONText.response(Rows(transactions: rows))
    }

    @Sendable func add(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let input = try await JSONBody.decode(PortfolioInput.self, request, ctx)
        let transaction = try await checked(input, LanguagePreference.of(request))
        try await store.add(owner: ctx.owner, [transaction])
        await changed(ctx.owner)
        return JSONText.response(PortfolioTransactionJSON(transaction), status: .created)
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let id = ctx.parameters.get("id") ?? ""
        guard try await store.remove(owner: ctx.owner, id: id) else { throw APIError.notFound(.missingTransaction) }
        await changed(ctx.owner)
        return JSONText.response(["id": id])
    }

    /// `?format=csv` (default) or `json`, as a download; `&bom=1` starts the CSV with a UTF-8 byte
    /// order mark, which Excel needs to read Korean text as UTF-8.
    @Sendable func export(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let format = request.uri.queryParameters["format"].map(String.init) ?? "csv"
        let bom: Bool
        switch request.uri.queryParameters["bom"].map(String.init) {
        // Excel on Korean Windows garbles 한글 notes without the mark: on unless `bom=0`.
        case "0", "false": bom = false
        case nil, "1", "true": bom = true
        default: throw APIError.badParameter(.bom, .oneOf(["1", "0"]))
        }
        let transactions = try await store.transactions(owner: ctx.owner)
        switch format {
        case "csv":
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/csv; charset=utf-8",
                    .contentDisposition: "attachment; filename=\"sise-portfolio.csv\"",
                ],
                body: .init(byteBuffer: ByteBuffer(string: PortfolioCSV.encode(transactions, bom: bom)))
            )
        case "json":
            var response = JSONText.response(Transactions(transactions: transactions.map(PortfolioTransactionJSON.init)))
            response.headers[.contentDisposition] = "attachment; filename=\"sise-portfolio.json\""
            return response
        default:
            throw APIError.badParameter(.format, .oneOf(["csv", "json"]))
        }
    }

    /// A CSV file (`Content-Type: text/csv`) or the JSON export (`{"transactions":[…]}`), added
    /// to what the owner has, all or nothing.
    @Sendable func importFile(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        var request = request
        guard let buffer = try? await request.collectBody(upTo: Self.maxImportBytes) else { throw APIError.tooLarge }
        let data = Data(buffer: buffer)
        let transactions: [PortfolioTransaction]
        if request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true {
            struct File: Decodable { let transactions: [PortfolioInput] }
            try BodyControlCheck.check(data)
            guard let file = try? JSONDecoder().decode(File.self, from: data) else {
                throw APIError.badParameter(.body, .shapedLike(#"{"transactions":[…]}"#))
            }
            guard file.transactions.count <= PortfolioCSV.maxRows else {
                throw APIError.badParameter(.transactions, .atMostItems(PortfolioCSV.maxRows))
            }
            transactions = try file.transactions.enumerated().map { index, input in
                do throws(PortfolioInput.Failure) { return try input.transaction(id: Self.newID()) } catch {
                    throw APIError.refused(error, item: index + 1)
                }
            }
        } else {
            guard let text = String(data: data, encoding: .utf8) else { throw APIError.badParameter(.body, .utf8) }
            do { transactions = try PortfolioCSV.decode(text, newID: Self.newID) } catch {
                throw APIError.refused(error)
            }
        }
        let result = try await store.importing(owner: ctx.owner, transactions)
        await changed(ctx.owner)
        return JSONText.response(
            Imported(
                imported: result.added.count,
                skipped: result.alreadyThere,
                message: result.words(LanguagePreference.of(request))
            ),
            status: .created
        )
    }

    static let maxImportBytes = 2 * 1_024 * 1_024

    private func checked(_ input: PortfolioInput, _ language: Language) async throws -> PortfolioTransaction {
        let transaction: PortfolioTransaction
        do { transaction = try input.transaction(id: Self.newID()) } catch { throw APIError.refused(error) }
        // A market the exchange does not list would be a position with no price forever: the
        // board is asked (and given a moment to load) and the one listing rule decides.
        let board = try context.board(transaction.exchange)
        board.touch()
        _ = await board.waitForData(upTo: ServerContext.firstBoardWait)
        try context.requireListed(transaction.market, on: transaction.exchange)
        return transaction
    }

    static func newID() -> String { UUID().uuidString.lowercased() }
}
