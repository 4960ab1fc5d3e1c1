import Foundation
import Hummingbird
import SiseCore
import SiseStore

/// 변동 알림: `GET /api/alerts/changes` the owner's topics, `PUT /api/alerts/changes` any of
/// `{"wallets","flags","listings"}` (booleans; the others stay). A change the history records is
/// told through every destination alerts reach (`ChangeTeller`).
struct ChangeAlertsController {
    let context: ServerContext
    let store: ChangeAlertStore

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/alerts/changes", use: show)
        router.put("/api/alerts/changes", use: change)
    }

    struct Change: Decodable {
        var wallets: Bool?
        var flags: Bool?
        var listings: Bool?
    }

    @Sendable func show(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(try await store.settings(owner: ctx.owner))
    }

    @Sendable func change(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let body = try await JSONBody.decode(Change.self, request, ctx)
        var settings = try await store.settings(owner: ctx.owner)
        settings.wallets = body.wallets ?? settings.wallets
        settings.flags = body.flags ?? settings.flags
        settings.listings = body.listings ?? settings.listings
        try await store.set(settings, owner: ctx.owner, at: context.clock.now)
        return JSONText.response(settings)
    }
}
