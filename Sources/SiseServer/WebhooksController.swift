import Foundation
import Hummingbird
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// Where the owner's firings go besides the page: `GET|POST /api/webhooks`,
/// `DELETE /api/webhooks/{id}`, `GET /api/webhooks/{id}/deliveries`. A webhook is
/// `{"kind":"generic","url","secret"}` (the default kind: a signed POST of the firing), or a chat:
/// `{"kind":"telegram","botToken","chatId"}`, `{"kind":"discord","url"}`, `{"kind":"slack","url"}`
/// (each firing as that service's message, in `lang` — default the request's). Secrets are never
/// shown again: a listed chat's `url` is masked, a bot token never appears.
struct WebhooksController {
    let context: ServerContext
    let store: AlertStore
    let poster: WebhookPoster
    let chats: ChatServices

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/webhooks", use: list)
        router.post("/api/webhooks", use: add)
        router.delete("/api/webhooks/{id}", use: remove)
        router.patch("/api/webhooks/{id}", use: change)
        router.get("/api/webhooks/{id}/deliveries", use: deliveries)
    }

    struct Webhooks: Encodable { let webhooks: [AlertDestination.Listed] }
    struct Deliveries: Encodable { let deliveries: [AlertStore.Delivery] }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(Webhooks(webhooks: try await store.webhooks(owner: ctx.owner).map(AlertDestination.Listed.init)))
    }

    @Sendable func add(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        struct Body: Decodable {
            let kind: String?
            let url: String?
            let secret: String?
            let botToken: String?
            let chatId: String?
            let lang: String?
            let quietStart: String?
            let quietEnd: String?
            let timeZone: String?
            let dailyCap: Int?
        }
        let body = try await JSONBody.decode(Body.self, request, ctx)
        let language = body.lang.flatMap(Language.init(rawValue:)) ?? LanguagePreference.of(request)
        var hook: AlertStore.Webhook
        do {
            let window = DeliveryWindowInput(
                quietStart: body.quietStart.map { .some($0) },
                quietEnd: body.quietEnd.map { .some($0) },
                timeZone: body.timeZone,
                dailyCap: body.dailyCap.map { .some($0) }
            )
            hook = try AlertDestination.webhook(
                .init(kind: body.kind, url: body.url, secret: body.secret, botToken: body.botToken, chatId: body.chatId),
                id: UUID().uuidString.lowercased(),
                owner: ctx.owner,
                language: language,
                at: context.clock.now,
                poster: poster,
                chats: chats
            )
            do { hook.window = try window.applied(to: hook.window) } catch { throw APIError.refused(error) }
        } catch let error as AlertDestination.Refusal {
            throw APIError(status: .badRequest, code: "bad_parameter", error.text, error.values, field: error.field)
        }
        try await store.addWebhook(hook)
        return JSONText.response(AlertDestination.Listed(hook), status: .created)
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let id = ctx.parameters.get("id") ?? ""
        guard try await store.removeWebhook(owner: ctx.owner, id: id) else { throw APIError.notFound(.missingWebhook) }
        return JSONText.response(["id": id])
    }

    /// `{"quietStart":"23:00","quietEnd":"07:00","timeZone":"Asia/Seoul","dailyCap":20}` (any of them;
    /// null clears) for any of the owner's destinations — webhooks, chats and push subscriptions.
    @Sendable func change(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let id = ctx.parameters.get("id") ?? ""
        guard let hook = try await store.destination(owner: ctx.owner, id: id) else { throw APIError.notFound(.missingWebhook) }
        let input = try await JSONBody.decode(DeliveryWindowInput.self, request, ctx)
        let window: DeliveryWindow
        do { window = try input.applied(to: hook.window) } catch { throw APIError.refused(error) }
        guard let changed = try await store.setWindow(owner: ctx.owner, id: id, window, at: context.clock.now) else {
            throw APIError.notFound(.missingWebhook)
        }
        return JSONText.response(AlertDestination.Listed(changed))
    }

    @Sendable func deliveries(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let id = ctx.parameters.get("id") ?? ""
        // Another owner's webhook, or none: not found (as its other routes say), not an empty log.
        guard try await store.destination(owner: ctx.owner, id: id) != nil else { throw APIError.notFound(.missingWebhook) }
        return JSONText.response(Deliveries(deliveries: try await store.deliveries(owner: ctx.owner, webhookID: id)))
    }
}
