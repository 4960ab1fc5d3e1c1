import Foundation
import SiseStore

/// Favorites in memory: the same contract as `StoredFavorites` (the store tests run both).
public actor InMemoryFavorites: FavoritesRepository {
    private var items: [String: [String]] = [:]

    public init() {}

    public func list(owner: String) -> [String] { items[owner] ?? [] }

    public func add(owner: String, item: String, limit: Int) throws -> Bool {
        guard let item = FavoriteItem.normalize(item) else { throw StoreError.invalidItem(item) }
        if items[owner, default: []].contains(item) { return false }
        guard items[owner, default: []].count < limit else { throw StoreError.tooMany(limit: limit) }
        items[owner, default: []].append(item)
        return true
    }

    public func remove(owner: String, item: String) throws -> Bool {
        guard let item = FavoriteItem.normalize(item) else { throw StoreError.invalidItem(item) }
        let before = items[owner]?.count ?? 0
        items[owner]?.removeAll { $0 == item }
        return (items[owner]?.count ?? 0) < before
    }

    public func clear(owner: String) -> Int {
        let count = items[owner]?.count ?? 0
        items[owner] = nil
        return count
    }
}
