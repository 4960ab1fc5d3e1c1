import Foundation
import Logging
import NIOCore
import PostgresNIO

/// PostgreSQL through postgres-nio's pooled client. Every write is a `SERIALIZABLE`
/// transaction, retried when PostgreSQL reports a serialization failure or a deadlock, so the
/// store's check-then-write transactions hold across replicas exactly as they do in SQLite.
final class PostgresBackend: SQLBackend {
    let client: PostgresClient
    let location: String
    let logger: Logger
    var dialect: SQLDialect { .postgres }
    private let runner: Task<Void, Never>
    /// How often a transaction is tried before a conflict is reported (many writers of one
    /// owner's rows at once conflict often; each retry waits a little longer).
    static let attempts = 30

    init(configuration: PostgresClient.Configuration, location: String, logger: Logger) {
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        self.location = location
        self.logger = logger
        runner = Task { await client.run() }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL SERIALIZABLE", body)
    }

    /// Read committed, after taking a transaction-scoped advisory lock per key (in one order, so
    /// two writers never wait on each other crosswise): writers of one key follow one another.
    func write<T: Sendable>(locking keys: [String], _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL READ COMMITTED") { db in
            for key in Set(keys).sorted() { try await db.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", key) }
            return try await body(db)
        }
    }

    /// Runs `body` on a leased connection outside any transaction (LISTEN, advisory locks).
    func withConnection<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection { connection in try await body(connection) }
    }

    private func transaction<T: Sendable>(_ begin: String, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await client.withConnection { connection in
                    try await Connection(connection: connection, logger: logger).inTransaction(begin) { try await body($0) }
                }
            } catch let error as PSQLError where Self.isConflict(error) && attempt < Self.attempts {
                attempt += 1
                // A short, growing, jittered pause lets the other transaction finish.
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...min(100, 1 << min(attempt, 7)))))
            }
        }
    }

    /// 40001 serialization failure, 40P01 deadlock: the transaction may simply be run again.
    static func isConflict(_ error: PSQLError) -> Bool {
        guard let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }

    /// PostgreSQL's own message when the server sent one, else what failed on the way.
    static func reason(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] {
            return error.serverInfo?[.sqlState].map { "\(message) (\($0))" } ?? message
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }

    func close() async {
        runner.cancel()
        await runner.value
    }

    struct Connection: SQLConnection {
        let connection: PostgresConnection
        let logger: Logger
        var dialect: SQLDialect { .postgres }

        func run(_ sql: String) async throws {
            _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).get()
        }

        /// `begin` … `COMMIT`, or `ROLLBACK` when `body` throws.
        func inTransaction<T>(_ begin: String, _ body: (Connection) async throws -> T) async throws -> T {
            try await run(begin)
            do {
                let result = try await body(self)
                try await run("COMMIT")
                return result
            } catch {
                try? await run("ROLLBACK")
                throw error
            }
        }

        func execute(_ sql: String, _ arguments: [any SQLBindable]) async throws -> Int {
            let result = try await connection.query(Self.query(sql, arguments), logger: logger).get()
            return result.metadata.rows ?? 0
        }

        func query(_ sql: String, _ arguments: [any SQLBindable]) async throws -> [SQLRow] {
            let result = try await connection.query(Self.query(sql, arguments), logger: logger).get()
            return try result.rows.map(Self.row)
        }

        /// The store's `?` placeholders become PostgreSQL's `$1`, `$2` … (outside quotes).
        static func query(_ sql: String, _ arguments: [any SQLBindable]) -> PostgresQuery {
            var text = ""
            text.reserveCapacity(sql.utf8.count + 8)
            var number = 0
            var quote: Character?
            for character in sql {
                if let open = quote {
                    if character == open { quote = nil }
                    text.append(character)
                } else if character == "'" || character == "\"" {
                    quote = character
                    text.append(character)
                } else if character == "?" {
                    number += 1
                    text += "$\(number)"
                } else {
                    text.append(character)
                }
            }
            var binds = PostgresBindings(capacity: arguments.count)
            for argument in arguments {
                switch argument.sqlValue {
                case .null: binds.appendNull()
                case .integer(let value): binds.append(value)
                case .real(let value): binds.append(value)
                case .text(let value): binds.append(value)
                case .bool(let value): binds.append(value)
                case .blob(let value): binds.append(ByteBuffer(bytes: value))
                }
            }
            return PostgresQuery(unsafeSQL: text, binds: binds)
        }

        static func row(_ row: PostgresRow) throws -> SQLRow {
            var columns: [String] = []
            var values: [SQLValue] = []
            for cell in row {
                columns.append(cell.columnName)
                values.append(try value(cell))
            }
            return SQLRow(columns: columns, values: values)
        }

        static func value(_ cell: PostgresCell) throws -> SQLValue {
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
            case .bool: return .bool(try cell.decode(Bool.self))
            case .float4, .float8: return .real(try cell.decode(Double.self))
            case .bytea:
                var buffer = try cell.decode(ByteBuffer.self)
                return .blob(Data(buffer.readBytes(length: buffer.readableBytes) ?? []))
            default: return .text(try cell.decode(String.self))
            }
        }
    }
}

/// Where the store lives: `sqlite:PATH` (a file, or a directory holding `sise.sqlite`) or
/// `postgres://user:password@host:port/database` (`postgresql://` too; `?host=/run/postgresql`
/// for a Unix socket).
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(directory: URL)
    case postgres(PostgresTarget)

    public struct PostgresTarget: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var socketPath: String?
        public var user: String
        public var password: String?
        public var database: String
        public var maxConnections: Int

        var clientConfiguration: PostgresClient.Configuration {
            var configuration =
                socketPath.map {
                    PostgresClient.Configuration(unixSocketPath: $0, username: user, password: password, database: database)
                } ?? PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
            configuration.options.maximumConnections = maxConnections
            configuration.options.minimumConnections = 0
            return configuration
        }

        /// The URL without its password, for messages and logs.
        public var display: String {
            let place = socketPath.map { "\($0)" } ?? "\(host):\(port)"
            return "postgres://\(user)@\(place)/\(database)"
        }
    }

    public enum Problem: Error, Equatable, Sendable {
        case unsupported(String)
        case malformed(String)
    }

    /// Reads `sqlite:…`, `postgres://…` or `postgresql://…`.
    public init(parsing text: String) throws(Problem) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("sqlite:") {
            var path = String(trimmed.dropFirst("sqlite:".count))
            if path.hasPrefix("//") { path = String(path.dropFirst(2)) }
            guard !path.isEmpty else { throw .malformed("sqlite: needs a path") }
            let url = URL(fileURLWithPath: path)
            // A path ending in .sqlite names the file; anything else is its directory.
            self = .sqlite(directory: url.pathExtension == "sqlite" ? URL(fileURLWithPath: url.deletingLastPathComponent().path) : url)
            return
        }
        guard trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://") else {
            throw .unsupported(String(trimmed.prefix(20)))
        }
        guard let components = URLComponents(string: trimmed) else { throw .malformed("not a URL") }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard let user = components.user.flatMap({ $0.removingPercentEncoding }), !user.isEmpty else {
            throw .malformed("postgres:// needs a user (postgres://user@host/database)")
        }
        guard !database.isEmpty else { throw .malformed("postgres:// needs a database name") }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw .malformed("port out of range") }
        let pool = query["pool"].flatMap(Int.init) ?? 10
        guard (1...200).contains(pool) else { throw .malformed("pool must be 1…200") }
        let socketPath = socket.map { "\($0)/.s.PGSQL.\(port)" }
        self = .postgres(
            PostgresTarget(
                host: host,
                port: port,
                socketPath: socketPath,
                user: user,
                password: components.password?.removingPercentEncoding,
                database: database,
                maxConnections: pool
            )
        )
    }
}
