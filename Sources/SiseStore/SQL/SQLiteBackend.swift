import Foundation
import GRDB

/// SQLite through GRDB. A write transaction is `BEGIN IMMEDIATE` … `COMMIT` on the writer
/// connection, its statements awaited one by one under a lock, so the store's transactions are
/// written once for both engines; reads go to the pool's readers.
struct SQLiteBackend: SQLBackend {
    let writer: any DatabaseWriter
    let location: String
    var dialect: SQLDialect { .sqlite }
    private let writeLock = AsyncMutex()
    /// A `DatabaseQueue` has one connection: a read must not see a write transaction half done.
    private let readsTakeTheLock: Bool

    init(writer: any DatabaseWriter, location: String) {
        self.writer = writer
        self.location = location
        self.readsTakeTheLock = !(writer is DatabasePool)
    }

    /// GRDB's configuration for a store connection: transactions span several accesses.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.allowsUnsafeTransactions = true
        return configuration
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        if readsTakeTheLock {
            return try await writeLock.withLock { try await body(Connection(writer: writer, writing: true)) }
        }
        return try await body(Connection(writer: writer, writing: false))
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await writeLock.withLock {
            try await writer.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            do {
                let result = try await body(Connection(writer: writer, writing: true))
                try await writer.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
                return result
            } catch {
                Self.rollback(writer)
                throw error
            }
        }
    }

    /// Synchronously (not an async hop a cancelled task would refuse): the transaction is given back.
    private static func rollback(_ writer: any DatabaseWriter) {
        writer.writeWithoutTransaction { db in
            if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
        }
    }

    func close() async {
        try? writer.close()
    }

    struct Connection: SQLConnection {
        let writer: any DatabaseWriter
        let writing: Bool
        var dialect: SQLDialect { .sqlite }

        func execute(_ sql: String, _ arguments: [any SQLBindable]) async throws -> Int {
            let bound = StatementArguments(arguments.map { Self.databaseValue($0.sqlValue) })
            return try await writer.writeWithoutTransaction { db in
                try db.execute(sql: sql, arguments: bound)
                return db.changesCount
            }
        }

        func query(_ sql: String, _ arguments: [any SQLBindable]) async throws -> [SQLRow] {
            let bound = StatementArguments(arguments.map { Self.databaseValue($0.sqlValue) })
            let fetch: @Sendable (Database) throws -> [SQLRow] = { db in
                try Row.fetchAll(db, sql: sql, arguments: bound).map(Self.row)
            }
            return writing ? try await writer.writeWithoutTransaction(fetch) : try await writer.read(fetch)
        }

        static func databaseValue(_ value: SQLValue) -> DatabaseValue {
            switch value {
            case .null: .null
            case .integer(let value): value.databaseValue
            case .real(let value): value.databaseValue
            case .text(let value): value.databaseValue
            case .blob(let value): value.databaseValue
            case .bool(let value): value.databaseValue
            }
        }

        static func row(_ row: Row) -> SQLRow {
            SQLRow(
                columns: Array(row.columnNames),
                values: row.databaseValues.map { value in
                    switch value.storage {
                    case .null: .null
                    case .int64(let value): .integer(value)
                    case .double(let value): .real(value)
                    case .string(let value): .text(value)
                    case .blob(let value): .blob(value)
                    }
                }
            )
        }
    }
}
