import Foundation
import Hummingbird
import SiseCore
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

    func addRoutes(to router: Router<SiseRequestContext>) {
        router.get("/api/webhooks", use: list)
        router.post("/api/webhooks", use: add)
        router.delete("/api/webhooks/{id}", use: remove)
        router.get("/api/webhooks/{id}/deliveries", use: deliveries)
    }

    /// A webhook as listed: never its secret; a chat's URL masked.
    struct WebhookJSON: Encodable {
        let id: String
        let kind: String
        let url: String
        let chatId: String?
        let lang: String
        let createdAt: Int64
        let failures: Int
        let disabled: Bool

        init(_ hook: AlertStore.Webhook) {
            id = hook.id
            kind = hook.kind.rawValue
            switch hook.kind {
            case .generic, .push: url = hook.url
            case .telegram: url = "telegram"
            case .discord, .slack: url = Self.masked(hook.url)
            }
            chatId = hook.kind == .telegram ? hook.url : nil
            lang = hook.language
            createdAt = hook.createdAt
            failures = hook.failures
            disabled = hook.disabled
        }

        /// `https://discord.com/api/webhooks/…a1b2`: the service, and the last four characters to tell two apart.
        static func masked(_ url: String) -> String {
            guard let parsed = URL(string: url), let scheme = parsed.scheme, let host = parsed.host else { return "…" }
            return "\(scheme)://\(host)/…\(url.suffix(4))"
        }
    }

    struct Webhooks: Encodable { let webhooks: [WebhookJSON] }
    struct Deliveries: Encodable { let deliveries: [AlertStore.Delivery] }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(Webhooks(webhooks: try await store.webhooks(owner: ctx.owner).map(WebhookJSON.init)))
    }

    @Sendable func add(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try context.admitWrite(ctx)
        struct Body: Decodable {
            let kind: String?
            let url: String?
            let secret: String?
            let botToken: String?
            let chatId: String?
            let lang: String?
        }
        let body = try await JSONBody.decode(Body.self, request, ctx)
        guard let kind = AlertStore.Webhook.Kind(rawValue: body.kind ?? "generic"), kind != .push else {
            throw APIError.badField("kind", "generic, telegram, discord or slack (browsers subscribe at /api/push/subscriptions)")
        }
        let language = body.lang.flatMap(Language.init(rawValue:)) ?? LanguagePreference.of(request)
        var hook = AlertStore.Webhook(id: UUID().uuidString.lowercased(), owner: ctx.owner, url: "", secret: "", createdAt: context.clock.now,
                                      kind: kind, language: language.rawValue)
        switch kind {
        case .generic, .push:
            let url = body.url ?? ""
            if let problem = poster.check(url) { throw APIError.badField("url", problem.message) }
            guard let secret = body.secret, (8...256).contains(secret.count) else { throw APIError.badField("secret", "8 to 256 characters") }
            (hook.url, hook.secret) = (url, secret)
        case .telegram:
            guard let token = body.botToken, ChatServices.isBotToken(token) else {
                throw APIError.badField("botToken", "a Telegram bot token (123456789:AA…, from @BotFather)")
            }
            guard let chat = body.chatId, ChatServices.isChatID(chat) else { throw APIError.badField("chatId", "a chat id (-100…) or @channel") }
            if let problem = poster.check(chats.telegramURL(token: token)) { throw APIError.badField("botToken", problem.message) }
            (hook.url, hook.secret) = (chat, token)
        case .discord, .slack:
            let base = kind == .discord ? chats.discord : chats.slack
            guard let url = body.url, ChatServices.lies(url, under: base) else {
                throw APIError.badField("url", "a \(kind.rawValue) webhook URL (\(base.absoluteString)…)")
            }
            if let problem = poster.check(url) { throw APIError.badField("url", problem.message) }
            hook.url = url
        }
        try await store.addWebhook(hook)
        return JSONText.response(WebhookJSON(hook), status: .created)
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try context.admitWrite(ctx)
        let id = ctx.parameters.get("id") ?? ""
        guard try await store.removeWebhook(owner: ctx.owner, id: id) else { throw APIError.notFound("webhook \(id.prefix(64))") }
        return JSONText.response(["id": id])
    }

    @Sendable func deliveries(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let id = ctx.parameters.get("id") ?? ""
        return JSONText.response(Deliveries(deliveries: try await store.deliveries(owner: ctx.owner, webhookID: id)))
    }
}
