import Foundation

/// When each anonymous browser device was last seen, so devices nobody has used for months —
/// and everything they own — can go.
public struct DeviceRegistry: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func touch(_ owner: String, at now: Int64) async throws {
        try await database.write { db in
            try await db.execute(
                "INSERT INTO device (owner, lastSeen) VALUES (?, ?) ON CONFLICT (owner) DO UPDATE SET lastSeen = excluded.lastSeen",
                owner,
                now
            )
        }
    }

    /// Removes the favorites (and the record) of every device not seen since `cutoff`; devices
    /// from before last-seen was kept count by their newest favorite. Only device owners
    /// (32-hex tokens) are touched: the terminal's `local` owner never is. Returns how many
    /// devices went.
    @discardableResult
    public func purgeIdle(seenBefore cutoff: Int64) async throws -> Int {
        try await database.write { db in
            let idle = try await db.strings(
                """
                SELECT owner FROM device WHERE lastSeen < ? AND length(owner) = 32
                UNION
                SELECT owner FROM favorite WHERE length(owner) = 32 AND owner NOT IN (SELECT owner FROM device)
                GROUP BY owner HAVING MAX(createdAt) < ?
                """,
                cutoff,
                cutoff
            )
            for owner in idle {
                try await db.execute("DELETE FROM favorite WHERE owner = ?", owner)
                try await OwnerData.delete(owner, in: db)
                try await db.execute("DELETE FROM device WHERE owner = ?", owner)
            }
            return idle.count
        }
    }
}
