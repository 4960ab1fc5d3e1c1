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
        }
        let body = try await JSONBody.decode(Body.self, request, ctx)
        let language = body.lang.flatMap(Language.init(rawValue:)) ?? LanguagePreference.of(request)
        let hook: AlertStore.Webhook
        do {
            hook = try AlertDestination.webhook(
                .init(kind: body.kind, url: body.url, secret: body.secret, botToken: body.botToken, chatId: body.chatId),
                id: UUID().uuidString.lowercased(),
                owner: ctx.owner,
                language: language,
                at: context.clock.now,
                poster: poster,
                chats: chats
            )
        } catch {
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

    @Sendable func deliveries(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let id = ctx.parameters.get("id") ?? ""
        return JSONText.response(Deliveries(deliveries: try await store.deliveries(owner: ctx.owner, webhookID: id)))
    }
}
