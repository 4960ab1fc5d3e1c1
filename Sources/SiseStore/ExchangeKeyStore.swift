import Crypto
import Foundation
import SiseCore

/// The read-only exchange keys people connect, one per owner and exchange, sealed at rest
/// (AES-GCM under the server's own `exchange-keys` key, which `sise db export` carries with the
/// store): the database, a backup or an export alone never shows a key. What is ever shown of a
/// saved key is its hint (the access half's last four characters); the key itself leaves only
/// through `key(owner:exchange:)`, to the client that signs with it.
public struct ExchangeKeyStore: Sendable {
    /// What a face may show of a saved key.
    public struct Saved: Sendable, Equatable, Codable {
        public var exchange: Exchange
        public var hint: String
        public var createdAt: Int64
        /// Why the exchange last refused it (nil: it worked, or has not been tried).
        public var problem: KeyProblem?
        /// When it was last tried, epoch ms (0: never).
        public var checkedAt: Int64
    }

    private let database: AppDatabase
    private let serverKeys: ServerKeys
    private let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
        serverKeys = ServerKeys(database: database, clock: clock)
    }

    private func sealKey() async throws -> SymmetricKey {
        let bytes = try await serverKeys.key("exchange-keys") { SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) } }
        guard bytes.count == 32 else { throw StoreError.failed("the server's exchange-key seal is not 32 bytes") }
        return SymmetricKey(data: bytes)
    }

    /// Keeps `key` for `owner` on `exchange` (replacing the one kept before).
    public func save(owner: String, exchange: Exchange, key: ExchangeKey) async throws {
        let plain = Data((key.access + "\n" + key.secret).utf8)
        // The owner and exchange are bound in: a sealed row copied onto another owner does not open.
        let sealed = try AES.GCM.seal(plain, using: try await sealKey(), authenticating: Self.binding(owner, exchange))
        guard let combined = sealed.combined else { throw StoreError.failed("an exchange key could not be sealed") }
        let now = clock.now
        try await database.write { db in
            try await db.execute(
                """
                INSERT INTO exchange_key (owner, exchange, sealed, hint, createdAt, problem, checkedAt) VALUES (?, ?, ?, ?, ?, NULL, 0)
                ON CONFLICT (owner, exchange) DO UPDATE SET sealed = excluded.sealed, hint = excluded.hint,
                    createdAt = excluded.createdAt, problem = NULL, checkedAt = 0
                """,
                owner,
                exchange.rawValue,
                combined,
                key.hint,
                now
            )
        }
    }

    /// What `owner` has connected, by exchange order (no key, only hints).
    public func saved(owner: String) async throws -> [Saved] {
        let rows = try await database.read { db in
            try await db.query("SELECT exchange, hint, createdAt, problem, checkedAt FROM exchange_key WHERE owner = ?", owner)
        }
        return Self.saved(rows)
    }

    /// Every owner's connected keys (hints only), by owner: what a schedule walks.
    public func everyOwner() async throws -> [String: [Saved]] {
        let rows = try await database.read { db in
            try await db.query("SELECT owner, exchange, hint, createdAt, problem, checkedAt FROM exchange_key ORDER BY owner")
        }
        return Dictionary(grouping: rows) { $0.string("owner") ?? "" }.filter { !$0.key.isEmpty }.mapValues(Self.saved)
    }

    private static func saved(_ rows: [SQLRow]) -> [Saved] {
        let saved = rows.compactMap { row -> Saved? in
            guard let exchange = row.string("exchange").flatMap(Exchange.init(rawValue:)) else { return nil }
            return Saved(
                exchange: exchange,
                hint: row.string("hint") ?? "",
                createdAt: row.int64("createdAt") ?? 0,
                problem: row.string("problem").flatMap(KeyProblem.init(rawValue:)),
                checkedAt: row.int64("checkedAt") ?? 0
            )
        }
        return saved.sorted { $0.exchange.listOrder < $1.exchange.listOrder }
    }

    /// The key `owner` connected on `exchange`, opened; nil when there is none.
    public func key(owner: String, exchange: Exchange) async throws -> ExchangeKey? {
        let row = try await database.read { db in
            try await db.queryOne("SELECT sealed FROM exchange_key WHERE owner = ? AND exchange = ?", owner, exchange.rawValue)
        }
        guard let sealed = row?.data("sealed") else { return nil }
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let plain = try? AES.GCM.open(box, using: try await sealKey(), authenticating: Self.binding(owner, exchange)),
            let text = String(data: plain, encoding: .utf8), let cut = text.firstIndex(of: "\n")
        else { throw StoreError.failed("a saved exchange key could not be opened (the server key changed?)") }
        return ExchangeKey(access: String(text[..<cut]), secret: String(text[text.index(after: cut)...]))
    }

    /// Notes how the exchange last answered the key (nil: it worked).
    public func checked(owner: String, exchange: Exchange, problem: KeyProblem?) async throws {
        let now = clock.now
        try await database.write { db in
            try await db.execute(
                "UPDATE exchange_key SET problem = ?, checkedAt = ? WHERE owner = ? AND exchange = ?",
                problem?.rawValue,
                now,
                owner,
                exchange.rawValue
            )
        }
    }

    /// Forgets the key; false when there was none.
    @discardableResult
    public func remove(owner: String, exchange: Exchange) async throws -> Bool {
        try await database.write { db in
            try await db.execute("DELETE FROM exchange_key WHERE owner = ? AND exchange = ?", owner, exchange.rawValue) > 0
        }
    }

    private static func binding(_ owner: String, _ exchange: Exchange) -> Data {
        Data("sise exchange key\u{1F}\(owner)\u{1F}\(exchange.rawValue)".utf8)
    }
}
