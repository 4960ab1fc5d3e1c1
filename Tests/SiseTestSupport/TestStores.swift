import Foundation
import SiseStore

/// The store's engines a test runs against: SQLite in a fresh temporary directory always, and a
/// fresh PostgreSQL database when `SISE_TEST_POSTGRES_URL` names a server (README's test
/// command starts a throw-away one; without it the PostgreSQL half is skipped, and says so).
public enum TestStores {
    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["SISE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public static func sqlite() throws -> AppDatabase {
        try AppDatabase.open(directory: FileManager.default.temporaryDirectory.appendingPathComponent("sise-store-\(UUID().uuidString)"))
    }

    /// A new, empty, migrated database on the test server; nil (with a note) without one.
    public static func postgres() async throws -> AppDatabase? {
        try await freshPostgres()?.database
    }

    /// A new database and its URL (a second replica opens the same one).
    public static func freshPostgres() async throws -> (url: String, database: AppDatabase)? {
        guard let server = postgresURL else {
            print("note: PostgreSQL half skipped: SISE_TEST_POSTGRES_URL is not set (scripts/test.sh starts a server)")
            return nil
        }
        let name = "sise_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try psql(server, "CREATE DATABASE \(name)")
        let location = url(server, database: String(name))
        return (location, try await AppDatabase.open(DatabaseLocation(parsing: location)))
    }

    /// Both engines, named for the test's messages.
    public static func all() async throws -> [(name: String, database: AppDatabase)] {
        var stores: [(name: String, database: AppDatabase)] = [("sqlite", try sqlite())]
        if let postgres = try await postgres() { stores.append(("postgres", postgres)) }
        return stores
    }

    /// `url` with its database name replaced.
    public static func url(_ url: String, database: String) -> String {
        var components = URLComponents(string: url)!
        components.path = "/" + database
        return components.string!
    }

    /// Runs one statement with `psql` (outside any transaction: CREATE DATABASE).
    public static func psql(_ url: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw StoreError.failed("psql exited \(process.terminationStatus): \(sql)") }
    }
}
