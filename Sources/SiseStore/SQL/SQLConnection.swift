import Foundation

/// The two SQL dialects Sise speaks. The store's statements are written once in the subset both
/// accept (`?` placeholders, `ON CONFLICT … DO UPDATE`, `IS DISTINCT FROM`, `TRUE`/`FALSE`);
/// what differs is named here.
public enum SQLDialect: String, Sendable {
    case sqlite
    case postgres

    /// The column that orders a table's rows as they were inserted: SQLite's `rowid`, a
    /// `seq` identity column in PostgreSQL.
    public var insertionOrder: String {
        switch self {
        case .sqlite: "rowid"
        case .postgres: "seq"
        }
    }
}

/// A connection inside one transaction (a read or a write).
public protocol SQLConnection: Sendable {
    var dialect: SQLDialect { get }
    /// Runs a statement; returns how many rows it changed.
    @discardableResult func execute(_ sql: String, _ arguments: [any SQLBindable]) async throws -> Int
    func query(_ sql: String, _ arguments: [any SQLBindable]) async throws -> [SQLRow]
}

extension SQLConnection {
    @discardableResult public func execute(_ sql: String, _ arguments: any SQLBindable...) async throws -> Int {
        try await execute(sql, arguments)
    }

    public func query(_ sql: String, _ arguments: any SQLBindable...) async throws -> [SQLRow] {
        try await query(sql, arguments)
    }

    public func queryOne(_ sql: String, _ arguments: any SQLBindable...) async throws -> SQLRow? {
        try await query(sql, arguments).first
    }

    /// Whether the query finds at least one row.
    public func exists(_ sql: String, _ arguments: any SQLBindable...) async throws -> Bool {
        try await !query(sql, arguments).isEmpty
    }

    /// The first column of every row, as text.
    public func strings(_ sql: String, _ arguments: any SQLBindable...) async throws -> [String] {
        try await query(sql, arguments).compactMap {
            $0.values.first.flatMap { value in
                if case .text(let text) = value { return text }
                return nil
            }
        }
    }

    /// A single number (`SELECT COUNT(*) …`); 0 when there is no row.
    public func count(_ sql: String, _ arguments: any SQLBindable...) async throws -> Int {
        guard let row = try await query(sql, arguments).first, case .integer(let value) = row.first else { return 0 }
        return Int(value)
    }
}

/// A database engine behind the store: transactions in, rows out.
protocol SQLBackend: Sendable {
    var dialect: SQLDialect { get }
    /// Where it is, for messages (a file path, or a URL without its password).
    var location: String { get }
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T
    /// A write that touches only rows named by `keys`, serialised per key rather than judged
    /// afterwards: hot keys written by many at once wait their turn instead of failing and retrying.
    func write<T: Sendable>(locking keys: [String], _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T
    func close() async
}

extension SQLBackend {
    /// One writer at a time already (SQLite): an ordinary write.
    func write<T: Sendable>(locking keys: [String], _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await write(body)
    }
}
