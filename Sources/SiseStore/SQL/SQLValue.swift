import Foundation

/// One value crossing into or out of the database, whichever engine holds it.
public enum SQLValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
}

/// What may be bound to a `?` of a statement.
public protocol SQLBindable: Sendable {
    var sqlValue: SQLValue { get }
}

extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .bool(self) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension Data: SQLBindable { public var sqlValue: SQLValue { .blob(self) } }
extension SQLValue: SQLBindable { public var sqlValue: SQLValue { self } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// A result row: values by lower-cased column name (PostgreSQL folds unquoted names to lower
/// case, SQLite keeps them as written; the store reads both the same way).
public struct SQLRow: Sendable, Equatable {
    public private(set) var columns: [String]
    public private(set) var values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns.map { $0.lowercased() }
        self.values = values
    }

    public subscript(_ column: String) -> SQLValue {
        let key = column.lowercased()
        guard let index = columns.firstIndex(of: key) else { return .null }
        return values[index]
    }

    public func string(_ column: String) -> String? {
        switch self[column] {
        case .text(let text): text
        case .integer(let value): String(value)
        case .blob(let data): String(decoding: data, as: UTF8.self)
        default: nil
        }
    }

    public func int64(_ column: String) -> Int64? {
        switch self[column] {
        case .integer(let value): value
        case .bool(let value): value ? 1 : 0
        case .real(let value): Int64(exactly: value.rounded(.towardZero))
        case .text(let text): Int64(text)
        default: nil
        }
    }

    public func int(_ column: String) -> Int? { int64(column).flatMap { Int(exactly: $0) } }

    public func double(_ column: String) -> Double? {
        switch self[column] {
        case .real(let value): value
        case .integer(let value): Double(value)
        case .text(let text): Double(text)
        default: nil
        }
    }

    /// SQLite keeps booleans as 0/1, PostgreSQL as `boolean`.
    public func bool(_ column: String) -> Bool? {
        switch self[column] {
        case .bool(let value): value
        case .integer(let value): value != 0
        default: nil
        }
    }

    public func data(_ column: String) -> Data? {
        switch self[column] {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        default: nil
        }
    }

    /// The first column's value (for `SELECT COUNT(*)` and the like).
    public var first: SQLValue { values.first ?? .null }
}
