import Foundation
import Logging
import PostgresNIO

/// Tells the other replicas that an owner's data changed, so their open pages follow within a
/// second: PostgreSQL's `LISTEN`/`NOTIFY` on one channel. With SQLite there is one process and
/// nothing to tell. A replica skips its own notices (it has already told its pages).
public struct ChangeFeed: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case favorites
        case portfolio
        case alerts
    }

    static let channel = "sise_changes"
    private let database: AppDatabase
    /// This process among the replicas.
    public let replica: String

    public init(database: AppDatabase, replica: String = UUID().uuidString.lowercased()) {
        self.database = database
        self.replica = replica
    }

    /// Whether changes cross processes at all (PostgreSQL).
    public var isShared: Bool { database.backend is PostgresBackend }

    /// Tells the other replicas; never fails the caller (a lost notice costs a page a refresh).
    public func publish(_ kind: Kind, owner: String) async {
        guard let postgres = database.backend as? PostgresBackend else { return }
        let payload = "\(replica) \(kind.rawValue) \(owner)"
        do {
            try await postgres.withConnection { connection in
                var binds = PostgresBindings()
                binds.append(payload)
                _ = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT pg_notify('\(Self.channel)', $1)", binds: binds),
                    logger: postgres.logger
                ).get()
            }
        } catch {
            postgres.logger.warning("a change notice was not sent", metadata: ["error": "\(AppDatabase.reason(error))"])
        }
    }

    /// Hands every other replica's notice to `handler` until cancelled, listening again after
    /// a lost connection. Returns at once on SQLite.
    public func listen(_ handler: @escaping @Sendable (Kind, String) async -> Void) async {
        guard let postgres = database.backend as? PostgresBackend else { return }
        let replica = replica
        while !Task.isCancelled {
            do {
                try await postgres.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notices in
                        for try await notice in notices {
                            // `REPLICA KIND OWNER`; anything else on the channel is ignored.
                            var fields = notice.payload.split(separator: " ", maxSplits: 2).makeIterator()
                            guard let from = fields.next(), let kind = fields.next().flatMap({ Kind(rawValue: String($0)) }),
                                let owner = fields.next(), from != replica
                            else { continue }
                            await handler(kind, String(owner))
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                postgres.logger.warning("listening for changes again", metadata: ["error": "\(AppDatabase.reason(error))"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
