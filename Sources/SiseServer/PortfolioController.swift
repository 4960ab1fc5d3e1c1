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

    struct Imported: Encodable {
        let imported: Int
    }

    @Sendable func report(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(try await Self.report(of: ctx.owner, store: store, boards: context.boards))
    }

    static func report(of owner: String, store: PortfolioStore, boards: ExchangeBoards) async throws -> PortfolioReport {
        do { return try boards.portfolio(try await store.transactions(owner: owner)) } catch let problem as PortfolioLedger.Problem {
            throw StoreError.ledger(problem)
        }
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(Transactions(transactions: try await store.transactions(owner: ctx.owner).map(PortfolioTransactionJSON.init)))
    }

    @Sendable func add(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let input = try await JSONBody.decode(PortfolioInput.self, request, ctx)
        let transaction = try checked(input, LanguagePreference.of(request))
        try await store.add(owner: ctx.owner, [transaction])
        await changed(ctx.owner)
        return JSONText.response(PortfolioTransactionJSON(transaction), status: .created)
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let id = ctx.parameters.get("id") ?? ""
        guard try await store.remove(owner: ctx.owner, id: id) else { throw APIError.notFound("transaction \(id)") }
        await changed(ctx.owner)
        return JSONText.response(["id": id])
    }

    /// `?format=csv` (default) or `json`, as a download; `&bom=1` starts the CSV with a UTF-8 byte
    /// order mark, which Excel needs to read Korean text as UTF-8.
    @Sendable func export(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let format = request.uri.queryParameters["format"].map(String.init) ?? "csv"
        let bom: Bool
        switch request.uri.queryParameters["bom"].map(String.init) {
        case nil, "0", "false": bom = false
        case "1", "true": bom = true
        default: throw APIError.badParameter("bom", "must be 1 or 0")
        }
        let transactions = try await store.transactions(owner: ctx.owner)
        switch format {
        case "csv":
            return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8",
                                                   .contentDisposition: "attachment; filename=\"sise-portfolio.csv\""],
                            body: .init(byteBuffer: ByteBuffer(string: PortfolioCSV.encode(transactions, bom: bom))))
        case "json":
            var response = JSONText.response(Transactions(transactions: transactions.map(PortfolioTransactionJSON.init)))
            response.headers[.contentDisposition] = "attachment; filename=\"sise-portfolio.json\""
            return response
        default:
            throw APIError.badParameter("format", "must be csv or json")
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
            guard let file = try? JSONDecoder().decode(File.self, from: data) else {
                throw APIError.badParameter("body", "expected {\"transactions\":[…]} as the JSON export writes it")
            }
            guard file.transactions.count <= PortfolioCSV.maxRows else { throw APIError.badParameter("transactions", "at most \(PortfolioCSV.maxRows)") }
            transactions = try file.transactions.enumerated().map { index, input in
                do throws(PortfolioInput.Failure) { return try input.transaction(id: Self.newID()) } catch {
                    throw APIError.refused(error, item: index + 1)
                }
            }
        } else {
            guard let text = String(data: data, encoding: .utf8) else { throw APIError.badParameter("body", "CSV must be UTF-8") }
            do { transactions = try PortfolioCSV.decode(text, newID: Self.newID) } catch {
                throw APIError.refused(error)
            }
        }
        try await store.add(owner: ctx.owner, transactions)
        await changed(ctx.owner)
        return JSONText.response(Imported(imported: transactions.count), status: .created)
    }

    static let maxImportBytes = 2 * 1_024 * 1_024

    private func checked(_ input: PortfolioInput, _ language: Language) throws -> PortfolioTransaction {
        let transaction: PortfolioTransaction
        do { transaction = try input.transaction(id: Self.newID()) } catch { throw APIError.refused(error) }
        guard context.boards[transaction.exchange] != nil else { throw APIError.notFound("exchange \(transaction.exchange.rawValue)") }
        return transaction
    }

    static func newID() -> String { UUID().uuidString.lowercased() }
}
