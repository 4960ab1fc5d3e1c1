import Foundation
import Hummingbird
import SiseCore
import SiseEngine
import SiseStore

/// `GET /api/tax/{year}`: the owner's tax preview for a year (`?method=total-average|moving-average|fifo`,
/// `?noCost=zero|half`), and `GET /api/tax/{year}/export?rows=coins|transactions` the same year as
/// the accountant's CSV.
struct TaxController {
    let boards: ExchangeBoards
    let portfolio: PortfolioStore
    let deemed: DeemedPriceStore
    let clock: WallClock

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/tax/{year}", use: preview)
        router.get("/api/tax/{year}/export", use: export)
    }

    @Sendable func preview(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let (desk, transactions, tickers, recorded) = try await inputs(request, ctx)
        do {
            return JSONText.response(try desk.preview(transactions, now: clock.now, tickers: tickers, recorded: recorded))
        } catch { throw Self.refusal(error) }
    }

    @Sendable func export(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let rowsText = request.uri.queryParameters["rows"].map(String.init) ?? TaxCSV.Rows.coins.rawValue
        guard let rows = TaxCSV.Rows(rawValue: rowsText) else {
            throw APIError.badParameter(.rows, .oneOf(TaxCSV.Rows.allCases.map(\.rawValue)))
        }
        let (desk, transactions, tickers, recorded) = try await inputs(request, ctx)
        let text: String
        do { text = try desk.csv(transactions, rows: rows, now: clock.now, tickers: tickers, recorded: recorded) } catch {
            throw Self.refusal(error)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8",
                .contentDisposition: "attachment; filename=\"sise-tax-\(desk.year)-\(rows.rawValue).csv\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// The year, method and rule asked for, and what the preview is made from.
    private func inputs(
        _ request: Request,
        _ ctx: SiseRequestContext
    ) async throws -> (TaxDesk, [PortfolioTransaction], [Exchange: [Ticker]], [String: DeemedPrice]) {
        let desk = try Self.desk(request)
        let transactions = try await portfolio.transactions(owner: ctx.owner)
        // Prices only when something is held: a preview of nothing wakes no board.
        let tickers = transactions.isEmpty ? [:] : await boards.krwTickers()
        let recorded = clock.now < TaxRules.deemedInstant ? [:] : try await deemed.prices()
        return (desk, transactions, tickers, recorded)
    }

    static func desk(_ request: Request) throws -> TaxDesk {
        let query = request.uri.queryParameters
        let yearText = request.uri.path.split(separator: "/").dropFirst(2).first.map(String.init) ?? ""
        guard yearText.count == 4, yearText.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(yearText), (2000...2100).contains(year) else {
            throw APIError.badParameter(.year, .between(TaxRules.firstYear, 2100))
        }
        let method = try query["method"].map { text in
            guard let method = TaxMethod(rawValue: String(text)) else {
                throw APIError.badParameter(.method, .oneOf(TaxMethod.allCases.map(\.rawValue)))
            }
            return method
        }
        let noCost = try query["noCost"].map { text in
            guard let rule = NoCostRule(rawValue: String(text)) else {
                throw APIError.badParameter(.noCost, .oneOf(NoCostRule.allCases.map(\.rawValue)))
            }
            return rule
        }
        return TaxDesk(year: year, method: method ?? .default, noCost: noCost ?? .zero, language: LanguagePreference.of(request))
    }

    /// A year before the tax, or transactions the tax cannot read.
    static func refusal(_ error: TaxYearError) -> APIError {
        switch error {
        case .notTaxed: APIError(status: .badRequest, code: "not_taxed") { error.message($0) }
        case .moreThanHeld, .invalid: APIError(status: .unprocessableContent, code: "ledger") { error.message($0) }
        }
    }
}
