import Foundation
import Hummingbird
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// A logged-in account's exchange accounts: its read-only keys (`/api/exchange-keys`; a key goes
/// in once and never comes back out — the answers show its last four characters) and what the
/// accounts hold now (`GET /api/portfolio/accounts`, valued at each exchange's live KRW board);
/// their trades imported as portfolio transactions (`POST /api/portfolio/sync` starts a sync,
/// `GET` says how far it is).
struct ExchangeAccountsController {
    let context: ServerContext
    let desk: AccountDesk
    let syncs: AccountSyncJobs
    let portfolio: PortfolioStore

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/exchange-keys", use: list)
        router.put("/api/exchange-keys/{exchange}", use: connect)
        router.delete("/api/exchange-keys/{exchange}", use: remove)
        router.get("/api/portfolio/accounts", use: holdings)
        router.get("/api/portfolio/reconciliation", use: reconciliation)
        router.post("/api/portfolio/sync", use: startSync)
        router.get("/api/portfolio/sync", use: syncStatus)
    }

    /// What each account holds beside what the owner's transactions imply, per coin, explained.
    @Sendable func reconciliation(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let owner = try Self.owner(request, ctx)
        let language = LanguagePreference.of(request)
        async let transactions = portfolio.transactions(owner: owner)
        let holdings = try await desk.holdings(owner: owner, language: language)
        return JSONText.response(Reconciliation(holdings: holdings, transactions: try await transactions, language: language))
    }

    /// 202 with the sync's status: started now, or already on its way.
    @Sendable func startSync(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let owner = try Self.owner(request, ctx)
        try await context.admitWrite(ctx)
        return JSONText.response(await syncs.start(owner: owner, language: LanguagePreference.of(request)), status: .accepted)
    }

    @Sendable func syncStatus(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(await syncs.status(owner: try Self.owner(request, ctx)))
    }

    struct Keys: Encodable {
        let keys: [ExchangeKeyStore.Saved]
    }

    /// A key as the page sends it: the access half and the secret half.
    struct KeyInput: Decodable {
        let access: String
        let secret: String
    }

    /// A kept key, and what the exchange said of it when it was tried (nil: it read the account).
    struct Connected: Encodable {
        let key: ExchangeKeyStore.Saved
        let warning: String?
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let owner = try Self.owner(request, ctx)
        return JSONText.response(Keys(keys: try await desk.keys.saved(owner: owner)))
    }

    @Sendable func connect(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let owner = try Self.owner(request, ctx)
        let exchange = try Self.exchange(ctx)
        try await context.admitWrite(ctx)
        let input = try await JSONBody.decode(KeyInput.self, request, ctx)
        guard let key = ExchangeKey(access: input.access, secret: input.secret) else {
            throw APIError.badParameter(.body, .shapedLike(#"{"access":"…","secret":"…"}"#))
        }
        let language = LanguagePreference.of(request)
        let saved: ExchangeKeyStore.Saved
        do { saved = try await desk.connect(owner: owner, exchange: exchange, key: key, language: language) } catch let refusal as AccountDesk.Refusal
        {
            throw Self.refused(refusal, exchange: exchange)
        }
        let warning = saved.problem.map { AccountText.keyWarning(language, ["message": $0.message(language, exchange: exchange)]) }
        return JSONText.response(Connected(key: saved, warning: warning), status: .created)
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let owner = try Self.owner(request, ctx)
        let exchange = try Self.exchange(ctx)
        try await context.admitWrite(ctx)
        guard try await desk.keys.remove(owner: owner, exchange: exchange) else {
            throw APIError.notFound(.missingExchangeKey, ["exchange": exchange.displayName])
        }
        return Response(status: .noContent)
    }

    @Sendable func holdings(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let owner = try Self.owner(request, ctx)
        let language = LanguagePreference.of(request)
        let holdings = try await desk.holdings(owner: owner, language: language)
        return JSONText.response(AccountHoldingsAnswer(holdings, language: language))
    }

    /// Keys belong to accounts: an anonymous device connects none (401).
    static func owner(_ request: Request, _ ctx: SiseRequestContext) throws -> String {
        guard let account = ctx.account else { throw MeController.unauthorized(LanguagePreference.of(request)) }
        return account.owner
    }

    /// `{exchange}`: one whose accounts Sise reads (400 naming them otherwise).
    static func exchange(_ ctx: SiseRequestContext) throws -> Exchange {
        let readable = ExchangeRegistry.all.filter(\.readsAccounts)
        guard let name = ctx.parameters.get("exchange"), let exchange = Exchange(name: name), readable.contains(where: { $0.exchange == exchange })
        else { throw APIError.badParameter(.exchange, .oneOf(readable.map(\.id))) }
        return exchange
    }

    /// A key the exchange refused for good is a 422 that says what to fix; one that could not be
    /// tried (the exchange down or slow) a 502.
    static func refused(_ refusal: AccountDesk.Refusal, exchange: Exchange) -> APIError {
        guard let problem = refusal.problem else {
            let message = refusal.message
            return APIError(status: .badGateway, code: "upstream") { _ in message }
        }
        return APIError(status: .unprocessableContent, code: "key_refused", field: problem == .signature ? "secret" : "access") {
            problem.message($0, exchange: exchange)
        }
    }
}
