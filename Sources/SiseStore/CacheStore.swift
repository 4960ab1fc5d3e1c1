import Foundation

/// A persistent key → bytes cache (CoinGecko answers survive a restart).
public protocol CacheStore: Sendable {
    func get(_ key: String) async -> (data: Data, fetchedAt: Int64)?
    func put(_ key: String, data: Data, fetchedAt: Int64) async
    /// Drops entries fetched before `cutoff` (epoch ms); returns how many.
    @discardableResult func purge(fetchedBefore cutoff: Int64) async -> Int
}

/// The cache in the app's database: one file for a home install, shared by every replica on
/// PostgreSQL (what one replica fetched, the others serve).
public struct DatabaseCache: CacheStore {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func get(_ key: String) async -> (data: Data, fetchedAt: Int64)? {
        try? await database.read { db in
            try await db.queryOne("SELECT body, fetchedAt FROM cache WHERE key = ?", key).flatMap { row in
                guard let body = row.data("body"), let fetchedAt = row.int64("fetchedAt") else { return nil }
                return (data: body, fetchedAt: fetchedAt)
            }
        }
    }

    public func put(_ key: String, data: Data, fetchedAt: Int64) async {
        _ = try? await database.write { db in
            try await db.execute(
                """
                INSERT INTO cache (key, body, fetchedAt) VALUES (?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET body = excluded.body, fetchedAt = excluded.fetchedAt
                """,
                key,
                data,
                fetchedAt
            )
        }
    }

    public func purge(fetchedBefore cutoff: Int64) async -> Int {
        (try? await database.write { db in
            try await db.execute("DELETE FROM cache WHERE fetchedAt < ?", cutoff)
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
