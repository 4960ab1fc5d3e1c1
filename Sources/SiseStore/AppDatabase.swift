import Foundation
import GRDB

/// Sise's SQLite database: built from any GRDB writer, migrated on open.
public final class AppDatabase: Sendable {
    private let writer: any DatabaseWriter

    public init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

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
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            return try AppDatabase(DatabasePool(path: path, configuration: configuration))
        } catch {
            throw StoreError.unavailable(path: path, reason: Self.reason(error))
        }
    }

    /// What went wrong, in words: the system's own for a file-system error ("Not a directory",
    /// "Permission denied"), SQLite's message for a database error.
    static func reason(_ error: any Error) -> String {
        if let database = error as? DatabaseError { return database.message ?? "SQLite error \(database.resultCode.rawValue)" }
        var current = error as NSError
        while let underlying = current.userInfo[NSUnderlyingErrorKey].flatMap({ $0 as? any Error }) { current = underlying as NSError }
        if current.domain == NSPOSIXErrorDomain, let text = strerror(Int32(current.code)).flatMap({ String(validatingCString: $0) }) {
            return text
        }
        return current.localizedDescription
    }

    /// An in-memory database, for tests.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue())
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
        return migrator
    }

    /// A query round trip: the store answers (for readiness checks).
    public func ping() async throws {
        _ = try await read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.read(body) } catch { throw StoreError.failed("\(error)") }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.write(body) } catch let error as StoreError { throw error } catch { throw StoreError.failed("\(error)") }
    }
}
