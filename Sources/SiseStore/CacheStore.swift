import Foundation
import GRDB

/// A persistent key → bytes cache (CoinGecko answers survive a restart).
public protocol CacheStore: Sendable {
    func get(_ key: String) async -> (data: Data, fetchedAt: Int64)?
    func put(_ key: String, data: Data, fetchedAt: Int64) async
    /// Drops entries fetched before `cutoff` (epoch ms); returns how many.
    @discardableResult func purge(fetchedBefore cutoff: Int64) async -> Int
}

/// The cache in the app's SQLite database.
public struct SQLiteCache: CacheStore {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func get(_ key: String) async -> (data: Data, fetchedAt: Int64)? {
        try? await database.read { db in
            try Row.fetchOne(db, sql: "SELECT body, fetchedAt FROM cache WHERE key = ?", arguments: [key])
                .map { (data: $0["body"] as Data, fetchedAt: $0["fetchedAt"] as Int64) }
        }
    }

    public func put(_ key: String, data: Data, fetchedAt: Int64) async {
        _ = try? await database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO cache (key, body, fetchedAt) VALUES (?, ?, ?)",
                           arguments: [key, data, fetchedAt])
        }
    }

    public func purge(fetchedBefore cutoff: Int64) async -> Int {
        (try? await database.write { db in
            try db.execute(sql: "DELETE FROM cache WHERE fetchedAt < ?", arguments: [cutoff])
            return db.changesCount
        }) ?? 0
    }
}

/// Remembers nothing: a one-shot command whose data directory cannot be opened still answers,
/// it only loses the shared cache.
public struct NoCache: CacheStore {
    public init() {}
    public func get(_ key: String) async -> (data: Data, fetchedAt: Int64)? { nil }
    public func put(_ key: String, data: Data, fetchedAt: Int64) async {}
    public func purge(fetchedBefore cutoff: Int64) async -> Int { 0 }
}
