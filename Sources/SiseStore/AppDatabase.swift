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
