import Foundation
import GRDB

/// Favorites in SQLite, one named transaction per write.
public struct SQLiteFavorites: FavoritesRepository {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func list(owner: String) async throws -> [String] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT item FROM favorite WHERE owner = ? ORDER BY createdAt, rowid", arguments: [owner])
        }
    }

    public func add(owner: String, item: String, limit: Int) async throws -> Bool {
        guard let item = FavoriteItem.normalize(item) else { throw StoreError.invalidItem(item) }
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        return try await database.write { db in
            let exists = try Bool.fetchOne(db, sql: "SELECT 1 FROM favorite WHERE owner = ? AND item = ?",
                                           arguments: [owner, item]) ?? false
            if exists { return false }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM favorite WHERE owner = ?", arguments: [owner]) ?? 0
            guard count < limit else { throw StoreError.tooMany(limit: limit) }
            try db.execute(sql: "INSERT INTO favorite (owner, item, createdAt) VALUES (?, ?, ?)", arguments: [owner, item, now])
            return true
        }
    }

    public func remove(owner: String, item: String) async throws -> Bool {
        guard let item = FavoriteItem.normalize(item) else { throw StoreError.invalidItem(item) }
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM favorite WHERE owner = ? AND item = ?", arguments: [owner, item])
            return db.changesCount > 0
        }
    }

    public func clear(owner: String) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM favorite WHERE owner = ?", arguments: [owner])
            return db.changesCount
        }
    }
}
