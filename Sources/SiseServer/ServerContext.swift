import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// What every controller needs: the live board, the favorites store and the app's facts.
struct ServerContext: Sendable {
    let board: LiveBoard
    let favorites: any FavoritesRepository
    let coinInfo: CoinInfoService
    let upbit: any UpbitAPI
    let demo: Bool
    let simulatorURL: URL?
    let version: String
    /// Told when a device's favorites change, so live views that show favorites follow.
    let favoritesChanged: @Sendable (String) async -> Void

    /// The favorites of `owner` that are Upbit markets.
    func favoriteMarkets(_ owner: String) async throws -> Set<MarketID> {
        Set(try await favorites.list(owner: owner).compactMap(MarketID.init))
    }
}
