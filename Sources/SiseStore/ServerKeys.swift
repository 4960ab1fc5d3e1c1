import Foundation
import SiseCore

/// The server's own secret keys, made once and kept in the store, so every replica signs and
/// checks with the same one (the log-in device cookies' key; the Web Push key pair later).
/// The first replica to ask makes the key; a replica asking at the same moment gets that one.
public struct ServerKeys: Sendable {
    private let database: AppDatabase

    /// The wall clock records are stamped with (the composition root's).
    private let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.clock = clock
        self.database = database
    }

    /// The key called `name`; `make` gives its bytes when the store has none yet.
    public func key(_ name: String, make: @escaping @Sendable () -> Data) async throws -> Data {
        try await database.write { db in
            try await db.execute(
                "INSERT INTO server_key (name, value, createdAt) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
                name,
                make(),
                clock.now
            )
            guard let value = try await db.queryOne("SELECT value FROM server_key WHERE name = ?", name)?.data("value") else {
                throw StoreError.failed("the server key \(name) could not be kept")
            }
            return value
        }
    }
}
