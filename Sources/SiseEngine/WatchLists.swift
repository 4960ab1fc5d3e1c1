import Foundation
import SiseCore
import SiseStore

/// The lists wide alert rules follow, read from the store: an owner's favorite markets, and the
/// markets the owner holds (a position with a quantity left), on one exchange.
public struct WatchLists: Sendable {
    let favorites: any FavoritesRepository
    let portfolio: PortfolioStore

    public init(favorites: any FavoritesRepository, portfolio: PortfolioStore) {
        self.favorites = favorites
        self.portfolio = portfolio
    }

    /// The lists of one store (the terminal's data directory).
    public init(database: AppDatabase) {
        self.init(favorites: StoredFavorites(database: database), portfolio: PortfolioStore(database: database))
    }

    public func markets(_ key: AlertBook.ListKey) async throws -> Set<MarketID> {
        switch key.target {
        case .favorites:
            // A CoinGecko coin starred on the info tab names no market: it is not followed.
            return Set(
                try await favorites.list(owner: key.owner).compactMap { raw -> MarketID? in
                    guard case .market(let code, let exchange)? = FavoriteItem(raw), exchange == key.exchange else { return nil }
                    return MarketID(code)
                }
            )
        case .portfolio:
            return []
        case .holdings:
            let transactions = try await portfolio.transactions(owner: key.owner).filter { $0.exchange == key.exchange }
            // A ledger that does not add up (a sale of more than was bought) still names what is held.
            guard let positions = try? PortfolioLedger.positions(transactions) else { return Set(transactions.map(\.market)) }
            return Set(positions.filter { $0.quantity > 0 }.map(\.market))
        }
    }

    /// The owner's positions (every exchange), replayed from the ledger; nil when the ledger does
    /// not add up (a sale of more than was bought: no P&L is read from it).
    public func positions(owner: String) async throws -> [Position]? {
        try? PortfolioLedger.positions(try await portfolio.transactions(owner: owner))
    }
}
