import Foundation
import GRDB

/// When each anonymous browser device was last seen, so devices nobody has used for months —
/// and everything they own — can go.
public struct DeviceRegistry: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func touch(_ owner: String, at now: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO device (owner, lastSeen) VALUES (?, ?) ON CONFLICT(owner) DO UPDATE SET lastSeen = excluded.lastSeen",
                           arguments: [owner, now])
        }
    }

    /// Removes the favorites (and the record) of every device not seen since `cutoff`; devices
    /// from before last-seen was kept count by their newest favorite. Only device owners
    /// (32-hex tokens) are touched: the terminal's `local` owner never is. Returns how many
    /// devices went.
    @discardableResult
    public func purgeIdle(seenBefore cutoff: Int64) async throws -> Int {
        try await database.write { db in
            let idle = try String.fetchAll(db, sql: """
                SELECT owner FROM device WHERE lastSeen < ? AND length(owner) = 32
                UNION
                SELECT owner FROM favorite WHERE length(owner) = 32 AND owner NOT IN (SELECT owner FROM device)
                GROUP BY owner HAVING MAX(createdAt) < ?
                """, arguments: [cutoff, cutoff])
            for owner in idle {
                try db.execute(sql: "DELETE FROM favorite WHERE owner = ?", arguments: [owner])
                try OwnerData.delete(owner, in: db)
                try db.execute(sql: "DELETE FROM device WHERE owner = ?", arguments: [owner])
            }
            return idle.count
        }
    }
}
