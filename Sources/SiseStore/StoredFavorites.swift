import Foundation
import SiseCore

/// Favorites in the app's database (SQLite or PostgreSQL), one transaction per write.
public struct StoredFavorites: FavoritesRepository {
    private let database: AppDatabase

    /// The wall clock records are stamped with (the composition root's).
    private let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.clock = clock
        self.database = database
    }

    public func list(owner: String) async throws -> [String] {
        let order = database.dialect.insertionOrder
        return try await database.read { db in
            try await db.strings("SELECT item FROM favorite WHERE owner = ? ORDER BY createdAt, \(order)", owner)
        }
    }

    public func add(owner: String, item: String, limit: Int) async throws -> Bool {
        guard let item = FavoriteItem.normalize(item) else { throw StoreError.invalidItem(item) }
        let now = clock.now
        return try await database.write { db in
            if try await db.exists("SELECT 1 FROM favorite WHERE owner = ? AND item = ?", owner, item) { return false }
            let count = try await db.count("SELECT COUNT(*) FROM favorite WHERE owner = ?", owner)
            guard count < limit else { throw StoreError.tooMany(limit: limit) }
            try await db.execute("INSERT INTO favorite (owner, item, createdAt) VALUES (?, ?, ?)", owner, item, now)
            return true
        }
    }

    public func remove(owner: String, item: String) async throws -> Bool {
        guard let item = FavoriteItem.normalize(item) else { throw StoreError.invalidItem(item) }
        return try await database.write { db in
            try await db.execute("DELETE FROM favorite WHERE owner = ? AND item = ?", owner, item) > 0
        }
    }

    public func clear(owner: String) async throws -> Int {
        try await database.write { db in
            try await db.execute("DELETE FROM favorite WHERE owner = ?", owner)
        }
    }
}
