import Foundation

/// One count a limit keeps for one key (a log-in's account, a client's address…): a number (a
/// count of failures, a bucket's tokens), when its window began and when it last changed, in
/// epoch milliseconds — wall time, so replicas on different machines read one another's.
public struct Tally: Sendable, Equatable {
    public var count: Double
    public var since: Int64
    public var last: Int64

    public init(count: Double, since: Int64, last: Int64) {
        self.count = count
        self.since = since
        self.last = last
    }
}

/// Throttle and rate-limit counts kept in the store, so replicas on one PostgreSQL share one
/// budget per key: behind N replicas an attacker gets the same number of guesses as behind one.
/// Each change reads and writes its keys in one transaction holding a lock per key, so attempts
/// sent at once to different replicas are all counted, one after another. Rows idle for a
/// day are deleted now and then; a limit's own window is shorter.
public struct ThrottleTallies: Sendable {
    private let database: AppDatabase
    /// Rows whose last change is older than this are deleted.
    public static let horizon: Int64 = 86_400_000

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Reads `keys`, lets `body` change them (a key set to nil is deleted), writes them back, in
    /// one transaction; returns what `body` returns.
    public func update<T: Sendable>(
        _ keys: [String],
        now: Int64,
        _ body: @escaping @Sendable (inout [String: Tally]) -> T
    ) async throws -> T {
        let keys = Array(Set(keys))
        guard !keys.isEmpty else {
            var none: [String: Tally] = [:]
            return body(&none)
        }
        return try await database.write(locking: keys.map { "throttle_count:" + $0 }) { db in
            let marks = Array(repeating: "?", count: keys.count).joined(separator: ", ")
            var tallies: [String: Tally] = [:]
            for row in try await db.query("SELECT key, count, since, last FROM throttle_count WHERE key IN (\(marks))", keys) {
                guard let key = row.string("key"), let count = row.double("count"), let since = row.int64("since"),
                    let last = row.int64("last")
                else { continue }
                tallies[key] = Tally(count: count, since: since, last: last)
            }
            let before = tallies
            let result = body(&tallies)
            for key in keys where tallies[key] != before[key] {
                if let tally = tallies[key] {
                    try await db.execute(
                        """
                        INSERT INTO throttle_count (key, count, since, last) VALUES (?, ?, ?, ?)
                        ON CONFLICT (key) DO UPDATE SET count = excluded.count, since = excluded.since, last = excluded.last
                        """,
                        key,
                        tally.count,
                        tally.since,
                        tally.last
                    )
                } else {
                    try await db.execute("DELETE FROM throttle_count WHERE key = ?", key)
                }
            }
            // Now and then (about one change in 500), rows nobody has touched for a day go.
            if Int.random(in: 0..<500) == 0 {
                try await db.execute("DELETE FROM throttle_count WHERE last < ?", now - Self.horizon)
            }
            return result
        }
    }

    /// Rows kept (for tests and metrics).
    public func count() async throws -> Int {
        try await database.read { db in try await db.count("SELECT COUNT(*) FROM throttle_count") }
    }
}
