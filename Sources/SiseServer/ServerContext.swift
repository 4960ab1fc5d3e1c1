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
    let upbit: any ExchangeAPI
    let demo: Bool
    let simulatorURL: URL?
    let version: String
    /// Told when a device's favorites change, so live views that show favorites follow.
    let favoritesChanged: @Sendable (String) async -> Void
    let favoriteWrites: WriteRateLimit

    /// The favorites of `owner` that are Upbit markets.
    /// How long a board request waits for the first board before answering 503.
    static let firstBoardWait = Duration.seconds(3)

    /// Waits (briefly) for the board's first data; 503 with `Retry-After` when it is not there:
    /// an empty board before the first load must never read as "no markets".
    func requireBoard() async throws {
        board.touch()
        guard await board.waitForData(upTo: Self.firstBoardWait) else {
            throw APIError.unavailable("the board", retryAfter: 1)
        }
    }

    func favoriteMarkets(_ owner: String) async throws -> Set<MarketID> {
        Set(try await favorites.list(owner: owner).compactMap(MarketID.init))
    }
}
