import Foundation

/// Favorites per owner (an anonymous device now, an account later). Items are Upbit market
/// codes (`KRW-BTC`) or CoinGecko ids (`bitcoin`), in the order they were added.
public protocol FavoritesRepository: Sendable {
    func list(owner: String) async throws -> [String]
    /// Adds `item`; adding twice keeps one. Returns whether it was new.
    /// - Throws: `StoreError.tooMany` when `owner` already has `limit` favorites.
    @discardableResult func add(owner: String, item: String, limit: Int) async throws -> Bool
    /// Removes `item`. Returns whether it was there.
    @discardableResult func remove(owner: String, item: String) async throws -> Bool
    /// Removes every favorite of `owner`; returns how many there were.
    @discardableResult func clear(owner: String) async throws -> Int
}

extension FavoritesRepository {
    /// The most favorites one owner may keep.
    public static var defaultLimit: Int { 500 }

    @discardableResult public func add(owner: String, item: String) async throws -> Bool {
        try await add(owner: owner, item: item, limit: Self.defaultLimit)
    }
}
