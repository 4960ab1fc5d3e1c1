import Foundation
import Hummingbird
import SiseCore
import SiseStore

/// The device's favorites: Upbit markets (`KRW-BTC`) and CoinGecko ids (`bitcoin`).
struct FavoritesController {
    let context: ServerContext

    struct Favorites: Encodable {
        let favorites: [String]
    }

    func addRoutes(to router: Router<SiseRequestContext>) {
        router.get("/api/favorites", use: list)
        router.put("/api/favorites/:item", use: add)
        router.delete("/api/favorites/:item", use: remove)
        router.delete("/api/favorites", use: clear)
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(Favorites(favorites: try await context.favorites.list(owner: ctx.deviceID)))
    }

    @Sendable func add(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let item = try validated(ctx)
        let added = try await context.favorites.add(owner: ctx.deviceID, item: item)
        await context.favoritesChanged(ctx.deviceID)
        return JSONText.response(Favorites(favorites: try await context.favorites.list(owner: ctx.deviceID)),
                                 status: added ? .created : .ok)
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let item = try validated(ctx)
        guard try await context.favorites.remove(owner: ctx.deviceID, item: item) else {
            throw APIError.notFound("favorite \(item)")
        }
        await context.favoritesChanged(ctx.deviceID)
        return JSONText.response(Favorites(favorites: try await context.favorites.list(owner: ctx.deviceID)))
    }

    @Sendable func clear(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.favorites.clear(owner: ctx.deviceID)
        await context.favoritesChanged(ctx.deviceID)
        return JSONText.response(Favorites(favorites: []))
    }

    /// A market code must be listed; a coin id must look like one.
    private func validated(_ ctx: SiseRequestContext) throws -> String {
        let raw = ctx.parameters.get("item") ?? ""
        guard let item = FavoriteItem.normalize(raw) else {
            throw APIError.badParameter("item", "'\(raw.prefix(40))' is not a market code (KRW-BTC) or a coin id (bitcoin)")
        }
        if let id = MarketID(item), !context.board.snapshot.rows.isEmpty, context.board.snapshot.rows[id] == nil {
            throw APIError.notFound("market \(id.code)")
        }
        return item
    }
}
