import Crypto
import Foundation
import Hummingbird
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// Web Push:
/// - `GET /api/push/key` — the server's VAPID public key (`{"publicKey"}`, base64url of the
///   uncompressed P-256 point), a page's `applicationServerKey`; the same on every replica.
/// - `POST /api/push/subscriptions` `{"endpoint","keys":{"p256dh","auth"},"lang"}` — keeps a browser's
///   subscription for the owner (device or account); `GET` lists them (`{"subscriptions":[{"id",
///   "host","createdAt"}]}` — the endpoint itself is a capability and is never shown again);
///   `DELETE /api/push/subscriptions/{id}` removes one.
/// Endpoints must be https on a public address (`--allow-private-webhooks` also admits http and
/// private or loopback push services); keys must be a P-256 point and a 16-byte secret.
struct PushController {
    let context: ServerContext
    let vapid: WebPushVAPID
    let store: AlertStore
    let poster: WebhookPoster

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        let key = ByteBuffer(string: #"{"publicKey":"\#(vapid.publicKey)"}"#)
        router.get("/api/push/key") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: key)
            )
        }
        router.get("/api/push/subscriptions", use: list)
        router.post("/api/push/subscriptions", use: add)
        router.delete("/api/push/subscriptions/{id}", use: remove)
    }

    struct SubscriptionJSON: Encodable {
        let id: String
        let host: String
        let createdAt: Int64

        init(_ subscription: AlertStore.Webhook) {
            id = subscription.id
            host = URL(string: subscription.url)?.host ?? ""
            createdAt = subscription.createdAt
        }
    }

    struct Subscriptions: Encodable { let subscriptions: [SubscriptionJSON] }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(Subscriptions(subscriptions: try await store.pushSubscriptions(owner: ctx.owner).map(SubscriptionJSON.init)))
    }

    @Sendable func add(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        struct Body: Decodable {
            struct Keys: Decodable {
                let p256dh: String
                let auth: String
            }
            let endpoint: String
            let keys: Keys
            /// The language its notifications are written in (default: the request's).
            let lang: String?
        }
        let body = try await JSONBody.decode(Body.self, request, ctx)
        try check(endpoint: body.endpoint)
        guard body.keys.p256dh.utf8.count <= 200, let point = Base64URL.decode(body.keys.p256dh), point.count == 65,
            (try? P256.KeyAgreement.PublicKey(x963Representation: point)) != nil
        else {
            throw APIError.badField(.p256dh, .base64URLBytes(65))
        }
        guard body.keys.auth.utf8.count <= 64, Base64URL.decode(body.keys.auth)?.count == 16 else {
            throw APIError.badField(.auth, .base64URLBytes(16))
        }
        let language = body.lang.flatMap(Language.init(rawValue:)) ?? LanguagePreference.of(request)
        let kept = try await store.addWebhook(
            .init(
                id: UUID().uuidString.lowercased(),
                owner: ctx.owner,
                url: body.endpoint,
                secret: "",
                createdAt: context.clock.now,
                kind: .push,
                p256dh: body.keys.p256dh,
                auth: body.keys.auth,
                language: language.rawValue
            )
        )
        return JSONText.response(SubscriptionJSON(kept), status: .created)
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let id = ctx.parameters.get("id") ?? ""
        guard try await store.removeWebhook(owner: ctx.owner, id: id, push: true) else { throw APIError.notFound(.missingPushSubscription) }
        return JSONText.response(["id": id])
    }

    /// A URL of a push service: https on a public address, unless private ones are allowed.
    private func check(endpoint: String) throws {
        if let problem = poster.check(endpoint) {
            let refusal = AlertDestination.Refusal(field: "endpoint", problem)
            throw APIError(status: .badRequest, code: "bad_parameter", refusal.text, refusal.values, field: refusal.field)
        }
        guard poster.allowPrivate || URL(string: endpoint)?.scheme?.lowercased() == "https" else {
            throw APIError.badField(.endpoint, .pushServiceURL)
        }
    }
}
