import Foundation
import GRDB
import Logging
import PostgresNIO
import SiseCore

/// Sise's database: SQLite (GRDB, the default: one file in the data directory) or PostgreSQL
/// (postgres-nio, pooled: what several `sise serve` replicas share). Migrated on open; the store
/// types above it write one SQL for both (`SQLConnection`).
public final class AppDatabase: Sendable {
    let backend: any SQLBackend

    init(backend: any SQLBackend) {
        self.backend = backend
    }

    /// A SQLite database on any GRDB writer (a pool for a file, a queue in memory).
    public convenience init(_ writer: any DatabaseWriter, location: String = "memory") throws {
        try Self.migrator.migrate(writer)
        self.init(backend: SQLiteBackend(writer: writer, location: location))
    }

    public var dialect: SQLDialect { backend.dialect }
    /// Where the data is, for messages (a path, or a URL without its password).
    public var location: String { backend.location }

    /// Where Sise keeps its data when no directory is given: `$XDG_DATA_HOME/sise`, else
    /// `~/.local/share/sise` (shared by `sise serve` and `sise tui`).
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("sise")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/sise")
    }

    /// Opens (or creates) `sise.sqlite` in `directory`, in WAL mode.
    public static func open(directory: URL) throws -> AppDatabase {
        let path = directory.appendingPathComponent("sise.sqlite").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try AppDatabase(DatabasePool(path: path, configuration: SQLiteBackend.configuration), location: path)
        } catch {
            throw StoreError.unavailable(path: path, reason: Self.reason(error))
        }
    }

    /// Opens the store at `location`: a SQLite file, or a PostgreSQL server (connected, its
    /// schema migrated under an advisory lock, so replicas starting together migrate once).
    public static func open(
        _ location: DatabaseLocation,
        logger: Logger = Logger(label: "sise.store"),
        connectTimeout: Duration = .seconds(10)
    ) async throws -> AppDatabase {
        switch location {
        case .sqlite(let directory):
            return try open(directory: directory)
        case .postgres(let target):
            // The pool's own chatter (each refused connection) only when debugging.
            var poolLogger = logger
            poolLogger.logLevel = max(logger.logLevel, .error)
            let database = AppDatabase(
                backend: PostgresBackend(
                    configuration: target.clientConfiguration,
                    location: target.display,
                    logger: poolLogger
                )
            )
            do {
                // The pool retries a refused connection forever; a server that does not answer
                // at start-up is a clear error instead.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await database.migratePostgres() }
                    group.addTask {
                        try await Task.sleep(for: connectTimeout)
                        throw NoAnswer(after: connectTimeout)
                    }
                    try await group.next()
                    group.cancelAll()
                }
            } catch {
                await database.close()
                throw StoreError.unavailable(path: target.display, reason: Self.reason(error))
            }
            return database
        }
    }

    /// What went wrong, in words: the system's own for a file-system error ("Not a directory",
    /// "Permission denied"), SQLite's or PostgreSQL's message for a database error.
    static func reason(_ error: any Error) -> String {
        if let database = error as? DatabaseError { return database.message ?? "SQLite error \(database.resultCode.rawValue)" }
        if let postgres = error as? PSQLError { return PostgresBackend.reason(postgres) }
        if let store = error as? StoreError { return store.message }
        if let silence = error as? NoAnswer { return "no answer within \(silence.after)" }
        var current = error as NSError
        while let underlying = current.userInfo[NSUnderlyingErrorKey].flatMap({ $0 as? any Error }) { current = underlying as NSError }
        if current.domain == NSPOSIXErrorDomain, let text = strerror(Int32(current.code)).flatMap({ String(validatingCString: $0) }) {
            return text
        }
        return current.localizedDescription
    }

    struct NoAnswer: Error {
        let after: Duration
    }

    /// An in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: SQLiteBackend.configuration))
    }

    /// Gives the connections back (PostgreSQL's pool, SQLite's file).
    public func close() async {
        await backend.close()
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: favorites") { db in
            try db.create(table: "favorite") { t in
                t.column("owner", .text).notNull()
                t.column("item", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.primaryKey(["owner", "item"])
            }
        }
        migrator.registerMigration("v2: upstream cache") { db in
            try db.create(table: "cache") { t in
                t.primaryKey("key", .text)
                t.column("body", .blob).notNull()
                t.column("fetchedAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v3: device last seen") { db in
            try db.create(table: "device") { t in
                t.primaryKey("owner", .text)
                t.column("lastSeen", .integer).notNull()
            }
        }
        migrator.registerMigration("v4: accounts and sessions") { db in
            try db.create(table: "account") { t in
                t.primaryKey("id", .text)
                t.column("email", .text).unique()
                t.column("username", .text).unique()
                t.column("nickname", .text).notNull()
                t.column("passwordHash", .text)
                t.column("createdAt", .integer).notNull()
            }
            try db.create(table: "session") { t in
                t.primaryKey("tokenHash", .text)
                t.column("accountID", .text).notNull().references("account", onDelete: .cascade)
                t.column("createdAt", .integer).notNull()
                t.column("expiresAt", .integer).notNull()
            }
            try db.create(index: "session_account", on: "session", columns: ["accountID"])
        }
        migrator.registerMigration("v5: avatars") { db in
            try db.alter(table: "account") { t in
                t.add(column: "avatarFile", .text)
                t.add(column: "avatarType", .text)
            }
        }
        migrator.registerMigration("v6: invites") { db in
            try db.create(table: "invite") { t in
                t.primaryKey("codeHash", .text)
                t.column("createdAt", .integer).notNull()
                t.column("usedBy", .text)
            }
        }
        migrator.registerMigration("v7: social identities") { db in
            try db.create(table: "identity") { t in
                t.column("provider", .text).notNull()
                t.column("subject", .text).notNull()
                t.column("accountID", .text).notNull().indexed().references("account", onDelete: .cascade)
                t.column("email", .text)
                t.column("linkedAt", .integer).notNull()
                t.primaryKey(["provider", "subject"])
            }
        }
        migrator.registerMigration("v8: portfolio and alerts") { db in
            try db.create(table: "portfolio_transaction") { t in
                t.primaryKey("id", .text)
                t.column("owner", .text).notNull().indexed()
                t.column("kind", .text).notNull()
                t.column("exchange", .text).notNull()
                t.column("market", .text).notNull()
                // Decimal strings: money and quantities never pass through binary floating point.
                t.column("quantity", .text).notNull()
                t.column("price", .text).notNull()
                t.column("fee", .text).notNull()
                t.column("at", .integer).notNull()
                t.column("note", .text).notNull()
                t.column("createdAt", .integer).notNull()
            }
            try db.create(table: "alert") { t in
                t.primaryKey("id", .text)
                t.column("owner", .text).notNull().indexed()
                t.column("exchange", .text).notNull()
                t.column("market", .text).notNull()
                t.column("type", .text).notNull()
                t.column("value", .text).notNull()
                t.column("windowMinutes", .integer)
                t.column("recurring", .boolean).notNull()
                t.column("cooldownSeconds", .integer).notNull()
                t.column("enabled", .boolean).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("lastFiredAt", .integer)
            }
            try db.create(table: "alert_firing") { t in
                t.primaryKey("id", .text)
                t.column("alertID", .text).notNull()
                t.column("owner", .text).notNull().indexed()
                t.column("body", .text).notNull()
                t.column("at", .integer).notNull()
            }
            try db.create(table: "webhook") { t in
                t.primaryKey("id", .text)
                t.column("owner", .text).notNull().indexed()
                t.column("url", .text).notNull()
                t.column("secret", .text).notNull()
                t.column("createdAt", .integer).notNull()
                t.column("failures", .integer).notNull().defaults(to: 0)
                t.column("disabled", .boolean).notNull().defaults(to: false)
            }
            try db.create(table: "webhook_delivery") { t in
                t.autoIncrementedPrimaryKey("seq")
                t.column("webhookID", .text).notNull().indexed().references("webhook", onDelete: .cascade)
                t.column("firingID", .text).notNull()
                t.column("status", .integer)
                t.column("attempt", .integer).notNull()
                t.column("ok", .boolean).notNull()
                t.column("error", .text)
                t.column("at", .integer).notNull()
            }
        }
        migrator.registerMigration("v9: shared budgets and the webhook queue") { db in
            try db.create(table: "call_budget") { t in
                t.column("name", .text).notNull()
                t.column("minute", .integer).notNull()
                t.column("used", .integer).notNull()
                t.primaryKey(["name", "minute"])
            }
            try db.create(table: "webhook_job") { t in
                t.primaryKey("id", .text)
                t.column("webhookID", .text).notNull().references("webhook", onDelete: .cascade)
                t.column("firingID", .text).notNull()
                t.column("body", .text).notNull()
                t.column("attempt", .integer).notNull()
                t.column("dueAt", .integer).notNull().indexed()
                t.column("lease", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v10: avatar images") { db in
            try db.create(table: "avatar_image") { t in
                t.primaryKey("file", .text)
                t.column("body", .blob).notNull()
            }
        }
        migrator.registerMigration("v11: server keys") { db in
            try db.create(table: "server_key") { t in
                t.primaryKey("name", .text)
                t.column("value", .blob).notNull()
                t.column("createdAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v12: delivery kinds") { db in
            // Every way a firing leaves the server is a row here, so one queue (webhook_job)
            // delivers them all: signed webhooks, chat presets and browsers' push subscriptions.
            try db.alter(table: "webhook") { t in
                t.add(column: "kind", .text).notNull().defaults(to: "generic")
                t.add(column: "p256dh", .text)
                t.add(column: "auth", .text)
                t.add(column: "lang", .text).notNull().defaults(to: "ko")
            }
        }
        migrator.registerMigration("v13: shared throttle counts") { db in
            try db.create(table: "throttle_count") { t in
                t.primaryKey("key", .text)
                t.column("count", .double).notNull()
                t.column("since", .integer).notNull()
                t.column("last", .integer).notNull().indexed()
            }
        }
        migrator.registerMigration("v14: premium history") { db in
            try db.create(table: "premium_point") { t in
                t.column("series", .text).notNull()
                t.column("resolution", .integer).notNull()
                t.column("bucket", .integer).notNull()
                t.column("sum", .double).notNull()
                t.column("count", .integer).notNull()
                t.primaryKey(["series", "resolution", "bucket"])
            }
            try db.create(index: "premium_point_age", on: "premium_point", columns: ["resolution", "bucket"])
            try db.create(table: "premium_claim") { t in
                t.primaryKey("minute", .integer)
            }
        }
        migrator.registerMigration("v15: premium alerts on any venue, held for minutes") { db in
            try db.alter(table: "alert") { t in
                t.add(column: "venue", .text)
                t.add(column: "holdMinutes", .integer)
            }
        }
        return migrator
    }

    /// A query round trip: the store answers (for readiness checks).
    public func ping() async throws {
        _ = try await read { db in try await db.query("SELECT 1") }
    }

    /// A read: one consistent snapshot in PostgreSQL; in SQLite each statement reads the latest
    /// committed data.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        do { return try await backend.read(body) } catch { throw Self.storeError(error) }
    }

    /// A write of the rows named by `keys` alone, its writers one after another per key: hot
    /// counters many replicas update at once (PostgreSQL: read committed under advisory locks).
    @discardableResult
    public func write<T: Sendable>(locking keys: [String], _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        do { return try await backend.write(locking: keys, body) } catch { throw Self.storeError(error) }
    }

    /// A write transaction: all of `body` or nothing, as if alone (SQLite takes the write lock,
    /// PostgreSQL runs it serializable and again on a conflict).
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        do { return try await backend.write(body) } catch { throw Self.storeError(error) }
    }

    /// The engines' errors as `StoreError.failed` in words; the store's own errors (and any
    /// other a transaction's body throws) unchanged.
    static func storeError(_ error: any Error) -> any Error {
        if error is DatabaseError || error is PSQLError { return StoreError.failed(reason(error)) }
        return error
    }

    /// Applies PostgreSQL's migrations that are not applied yet, one transaction, one replica at a time.
    func migratePostgres() async throws {
        guard let postgres = backend as? PostgresBackend else { return }
        try await postgres.withConnection { connection in
            try await PostgresBackend.Connection(connection: connection, logger: postgres.logger).inTransaction("BEGIN") { sql in
                // Any constant shared by every replica: the lock is released with the transaction.
                try await sql.run("SELECT pg_advisory_xact_lock(7351524201)")
                try await sql.run("CREATE TABLE IF NOT EXISTS sise_migration (id TEXT PRIMARY KEY, appliedAt BIGINT NOT NULL)")
                let applied = Set(try await sql.strings("SELECT id FROM sise_migration"))
                for migration in PostgresSchema.migrations where !applied.contains(migration.id) {
                    for statement in migration.sql.components(separatedBy: ";\n") {
                        try await sql.run(statement)
                    }
                    try await sql.execute(
                        "INSERT INTO sise_migration (id, appliedAt) VALUES (?, ?)",
                        migration.id,
                        WallClock.system.now
                    )
                }
            }
        }
    }

    /// The migrations applied, by name, oldest first (`sise db migrate` prints them).
    public func appliedMigrations() async throws -> [String] {
        switch dialect {
        case .sqlite: try await read { db in try await db.strings("SELECT identifier FROM grdb_migrations ORDER BY rowid") }
        case .postgres: try await read { db in try await db.strings("SELECT id FROM sise_migration ORDER BY appliedAt, id") }
        }
    }

    /// Every migration this build knows, in order.
    public static var migrationNames: [String] { PostgresSchema.migrations.map(\.id) }
}
