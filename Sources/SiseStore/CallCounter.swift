import Foundation

/// A per-minute call budget counted in the database, so replicas share one upstream budget
/// (CoinGecko's calls per minute are per key, not per replica). Counted per calendar minute: one
/// atomic upsert takes a call only while the minute's count is under the cap.
public struct CallCounter: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Takes one call of `name` in the minute of `now` (epoch ms) if fewer than `perMinute` were taken.
    public func take(_ name: String, perMinute: Int, at now: Int64) async -> Bool {
        let minute = now / 60_000
        return
            (try? await database.write { db in
                let taken = try await db.execute(
                    """
                    INSERT INTO call_budget (name, minute, used) VALUES (?, ?, 1)
                    ON CONFLICT (name, minute) DO UPDATE SET used = call_budget.used + 1 WHERE call_budget.used < ?
                    """,
                    name,
                    minute,
                    perMinute
                )
                if taken == 1, minute % 10 == 0 {
                    try await db.execute("DELETE FROM call_budget WHERE minute < ?", minute - 60)
                }
                return taken == 1
            }) ?? false
    }

    /// Calls of `name` taken in the minute of `now`, by every replica.
    public func used(_ name: String, at now: Int64) async -> Int {
        (try? await database.read { db in
            try await db.count("SELECT used FROM call_budget WHERE name = ? AND minute = ?", name, now / 60_000)
        }) ?? 0
    }
}
