import Foundation
import Hummingbird
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// The owner's alerts and their history (their destinations: `WebhooksController`, `PushController`).
struct AlertsController {
    let context: ServerContext
    let store: AlertStore
    let engine: AlertEngine
    let lists: WatchLists
    let changes: ChangeFeed

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/alerts", use: list)
        router.post("/api/alerts", use: add)
        router.get("/api/alerts/history", use: history)
        router.patch("/api/alerts/{id}", use: change)
        router.delete("/api/alerts/{id}", use: remove)
    }

    struct Alerts: Encodable { let alerts: [AlertRuleJSON] }
    struct History: Encodable { let history: [AlertFiring] }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let language = LanguagePreference.of(request)
        let rules = try await store.rules(owner: ctx.owner)
        let preparing = engine.preparing(rules.map(\.id))
        return JSONText.response(
            Alerts(
                alerts: rules.map {
                    AlertRuleJSON($0, language: language, preparing: preparing.contains($0.id), unwatched: engine.unarmedMarkets($0.id))
                }
            )
        )
    }

    @Sendable func add(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let input = try await JSONBody.decode(AlertInput.self, request, ctx)
        let rule: AlertRule
        do { rule = try input.rule(id: UUID().uuidString.lowercased(), owner: ctx.owner) } catch {
            throw APIError.refused(error)
        }
        try await listed(rule, LanguagePreference.of(request))
        try await store.add(rule)
        await engine.upsert(rule)
        await changes.publish(.alerts, owner: ctx.owner)
        let json = AlertRuleJSON(
            rule,
            language: LanguagePreference.of(request),
            preparing: !engine.preparing([rule.id]).isEmpty,
            unwatched: engine.unarmedMarkets(rule.id)
        )
        return JSONText.response(json, status: .created)
    }

    /// `{"enabled":false}`, a new `price`/`percent`/`factor`/`windowMinutes`, an indicator's
    /// `indicator`/`level`/`fast`/`slow`/`interval`, `venue`, `holdMinutes` (null:
    /// no hold), `recurring`, `cooldownSeconds`.
    @Sendable func change(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let id = ctx.parameters.get("id") ?? ""
        guard var rule = try await store.rules(owner: ctx.owner).first(where: { $0.id == id }) else { throw APIError.notFound(.missingAlert) }
        let body = try await JSONBody.decode(AlertChange.self, request, ctx)
        let text = PortfolioLedger.text(rule.value)
        let current = AlertRuleJSON(rule, language: .en)
        var input = AlertInput(
            exchange: rule.exchange.rawValue,
            market: rule.market.code,
            type: rule.kind.rawValue,
            price: body.price ?? text,
            percent: body.percent ?? text,
            factor: body.factor ?? text,
            windowMinutes: body.windowMinutes ?? rule.windowMinutes,
            venue: body.venue ?? rule.venue?.rawValue,
            holdMinutes: body.holdMinutes ?? rule.holdMinutes,
            recurring: body.recurring ?? rule.recurring,
            cooldownSeconds: body.cooldownSeconds ?? rule.cooldownSeconds
        )
        input.amount = body.amount ?? text
        input.indicator = body.indicator ?? current.indicator
        input.level = body.level ?? current.level
        input.fast = body.fast ?? current.fast
        input.slow = body.slow ?? current.slow
        input.interval = body.interval ?? current.interval
        do {
            let checked = try input.rule(id: rule.id, owner: rule.owner, now: rule.createdAt)
            rule.value = checked.value
            rule.windowMinutes = checked.windowMinutes
            rule.venue = checked.venue
            rule.holdMinutes = checked.holdMinutes
            rule.indicator = checked.indicator
            rule.recurring = checked.recurring
            rule.cooldownSeconds = checked.cooldownSeconds
        } catch {
            throw APIError.refused(error)
        }
        rule.enabled = body.enabled ?? rule.enabled
        guard try await store.update(rule) else { throw APIError.notFound(.missingAlert) }
        await engine.upsert(rule)
        await changes.publish(.alerts, owner: ctx.owner)
        return JSONText.response(AlertRuleJSON(rule, language: LanguagePreference.of(request)))
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let id = ctx.parameters.get("id") ?? ""
        guard try await store.remove(owner: ctx.owner, id: id) else { throw APIError.notFound(.missingAlert) }
        engine.remove(id)
        await changes.publish(.alerts, owner: ctx.owner)
        return JSONText.response(["id": id])
    }

    @Sendable func history(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(History(history: try await store.history(owner: ctx.owner)))
    }

    /// The market must be listed on the exchange, by the one listing rule; a wide rule's list
    /// must name a market there (it may empty later: the rule then waits for it); a P&L line
    /// needs something held.
    private func listed(_ rule: AlertRule, _ language: Language) async throws {
        if let problem = try await AlertTargetCheck(lists: lists).problem(rule, among: try await store.rules(owner: rule.owner)) {
            throw APIError(status: .badRequest, code: "bad_parameter", field: "market") { problem($0) }
        }
        if rule.target == nil { try context.requireListed(rule.market, on: rule.exchange) }
    }
}

/// A change to a rule: what is absent stays; `"holdMinutes":null` removes the hold.
struct AlertChange: Decodable {
    var indicator: String?, level: Double?, fast: Int?, slow: Int?, interval: String?
    var price: String?, percent: String?, factor: String?, amount: String?, windowMinutes: Int?, venue: String?, recurring: Bool?,
        cooldownSeconds: Int?,
        enabled: Bool?
    /// nil: unchanged; `.some(nil)`: no hold any more.
    var holdMinutes: Int??

    enum Keys: String, CodingKey {
        case price, percent, factor, amount, windowMinutes, venue, holdMinutes, recurring, cooldownSeconds, enabled, indicator, level, fast, slow,
            interval
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        price = try c.decodeIfPresent(String.self, forKey: .price)
        percent = try c.decodeIfPresent(String.self, forKey: .percent)
        factor = try c.decodeIfPresent(String.self, forKey: .factor)
        amount = try c.decodeIfPresent(String.self, forKey: .amount)
        indicator = try c.decodeIfPresent(String.self, forKey: .indicator)
        level = try c.decodeIfPresent(Double.self, forKey: .level)
        fast = try c.decodeIfPresent(Int.self, forKey: .fast)
        slow = try c.decodeIfPresent(Int.self, forKey: .slow)
        interval = try c.decodeIfPresent(String.self, forKey: .interval)
        windowMinutes = try c.decodeIfPresent(Int.self, forKey: .windowMinutes)
        venue = try c.decodeIfPresent(String.self, forKey: .venue)
        recurring = try c.decodeIfPresent(Bool.self, forKey: .recurring)
        cooldownSeconds = try c.decodeIfPresent(Int.self, forKey: .cooldownSeconds)
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled)
        if c.contains(.holdMinutes) { holdMinutes = .some(try c.decodeIfPresent(Int.self, forKey: .holdMinutes)) }
    }
}
