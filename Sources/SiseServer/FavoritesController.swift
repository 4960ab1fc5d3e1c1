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

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/favorites", use: list)
        router.put("/api/favorites/:item", use: add)
        router.delete("/api/favorites/:item", use: remove)
        router.delete("/api/favorites", use: clear)
    }

    @Sendable func list(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(Favorites(favorites: try await context.favorites.list(owner: ctx.owner)))
    }

    /// The answer to a change: the item and where it stands, not the whole list.
    struct Change: Encodable {
        let item: String
        let kind: String
        /// The market's exchange (absent for a coin).
        let exchange: String?
        let favorite: Bool
    }

    @Sendable func add(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let item = try validated(request, ctx)
        let added = try await context.favorites.add(owner: ctx.owner, item: item.key)
        if added { await context.favoritesChanged(ctx.owner) }
        return JSONText.response(
            Change(item: item.key, kind: item.kind, exchange: item.exchange?.rawValue, favorite: true),
            status: added ? .created : .ok
        )
    }

    @Sendable func remove(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        let item = try validated(request, ctx)
        guard try await context.favorites.remove(owner: ctx.owner, item: item.key) else {
            throw APIError.notFound(.missingFavorite, ["name": APIError.clip(item.key, to: 64)])
        }
        await context.favoritesChanged(ctx.owner)
        return JSONText.response(Change(item: item.key, kind: item.kind, exchange: item.exchange?.rawValue, favorite: false))
    }

    @Sendable func clear(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        try await context.admitWrite(ctx)
        try await context.favorites.clear(owner: ctx.owner)
        await context.favoritesChanged(ctx.owner)
        return JSONText.response(Favorites(favorites: []))
    }

    /// A market must be listed (once the board is known); a coin id must have CoinGecko's
    /// syntax. Text that reads both ways (`krw-abc`) is the market when it is listed, else the
    /// coin.
    /// `?exchange=korbit` puts a market on that exchange (as `korbit:KRW-BTC` does).
    private func validated(_ request: Request, _ ctx: SiseRequestContext) throws -> FavoriteItem {
        // Path parameters arrive as sent: `korbit%3AKRW-BTC` is `korbit:KRW-BTC`.
        let sent = ctx.parameters.get("item") ?? ""
        let raw = sent.removingPercentEncoding ?? sent
        var readings = FavoriteItem.readings(raw)
        if request.uri.queryParameters["exchange"] != nil, !raw.contains(":") {
            let exchange = try ServerContext.exchange(request)
            readings = readings.map { $0.on(exchange) }
        }
        guard !readings.isEmpty else {
            throw APIError.badParameter(.favorite, .coinOrMarket)
        }
        for reading in readings {
            switch reading {
            case .market(let code, let exchange):
                let board = try context.board(exchange)
                if !board.hasData || MarketID(code).map({ board.snapshot.rows[$0] != nil }) == true { return reading }
            case .coin:
                return reading
            }
        }
        // Not listed: refused as every face refuses an unlisted market.
        let codes = readings.compactMap { reading -> String? in
            if case .market(let code, _) = reading { return code }
            return nil
        }
        throw APIError.listing(.unlisted([codes.first ?? raw]))
    }
}
