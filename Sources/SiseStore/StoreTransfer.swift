import Foundation

/// Moves a whole store between engines as JSON lines (`sise db export` / `sise db import`): a
/// home install's SQLite file into PostgreSQL without losing a favorite, a transaction or an
/// alert. The first line names the format and the migrations of the store it came from; every
/// other line is one row, `{"table":…,"row":{column: value}}`, booleans as booleans and bytes as
/// base64 whatever the engine keeps them as. Rows are written in the order they were added, and
/// an import replays them in that order, in one transaction: all of it or nothing. The server's
/// own keys travel too, so the file is a secret (`sise db export -o` writes it 0600).
public struct StoreTransfer: Sendable {
    enum Kind: Sendable { case text, integer, real, bool, blob }

    struct Table: Sendable {
        let name: String
        let columns: [(name: String, kind: Kind)]
        /// SQL order of the rows: as they were added.
        let order: @Sendable (SQLDialect) -> String
        /// What a column holds when an export made before it existed has no value for it.
        var defaults: [String: Cell] = [:]
        /// Rows the server makes for itself on first start (its keys): an import replaces them
        /// rather than calling the store not empty — the moved store's keys are the ones its
        /// browsers' push subscriptions and device cookies were made under.
        var serverMade = false
    }

    /// Parents before children (sessions after their account, deliveries after their webhook).
    static let tables: [Table] = [
        // The VAPID key (push subscriptions) and the device-cookie HMAC key: without them, after a
        // move every push subscription and every remembered log-in device silently stops working.
        Table(name: "server_key", columns: [("name", .text), ("value", .blob), ("createdAt", .integer)], order: { _ in "name" }, serverMade: true),
        Table(
            name: "account",
            columns: [
                ("id", .text), ("email", .text), ("username", .text), ("nickname", .text), ("passwordHash", .text),
                ("createdAt", .integer), ("avatarFile", .text), ("avatarType", .text),
            ],
            order: { "createdAt, \($0.insertionOrder)" }
        ),
        Table(name: "avatar_image", columns: [("file", .text), ("body", .blob)], order: { _ in "file" }),
        Table(
            name: "session",
            columns: [("tokenHash", .text), ("accountID", .text), ("createdAt", .integer), ("expiresAt", .integer)],
            order: { _ in "createdAt, tokenHash" }
        ),
        Table(name: "invite", columns: [("codeHash", .text), ("createdAt", .integer), ("usedBy", .text)], order: { _ in "createdAt, codeHash" }),
        Table(
            name: "identity",
            columns: [("provider", .text), ("subject", .text), ("accountID", .text), ("email", .text), ("linkedAt", .integer)],
            order: { _ in "linkedAt, provider, subject" }
        ),
        Table(
            name: "favorite",
            columns: [("owner", .text), ("item", .text), ("createdAt", .integer)],
            order: { "createdAt, \($0.insertionOrder)" }
        ),
        Table(name: "device", columns: [("owner", .text), ("lastSeen", .integer)], order: { _ in "owner" }),
        Table(name: "cache", columns: [("key", .text), ("body", .blob), ("fetchedAt", .integer)], order: { _ in "key" }),
        Table(
            name: "portfolio_transaction",
            columns: [
                ("id", .text), ("owner", .text), ("kind", .text), ("exchange", .text), ("market", .text), ("quantity", .text),
                ("price", .text), ("fee", .text), ("at", .integer), ("note", .text), ("createdAt", .integer),
            ],
            order: { _ in "owner, at, id" }
        ),
        Table(
            name: "alert",
            columns: [
                ("id", .text), ("owner", .text), ("exchange", .text), ("market", .text), ("type", .text), ("value", .text),
                ("windowMinutes", .integer), ("recurring", .bool), ("cooldownSeconds", .integer), ("enabled", .bool),
                ("createdAt", .integer), ("lastFiredAt", .integer), ("venue", .text), ("holdMinutes", .integer), ("indicator", .text),
                ("target", .text),
            ],
            order: { _ in "createdAt, id" }
        ),
        Table(
            name: "alert_firing",
            columns: [("id", .text), ("alertID", .text), ("owner", .text), ("body", .text), ("at", .integer)],
            order: { "at, \($0.insertionOrder)" }
        ),
        Table(
            name: "change_alert",
            columns: [("owner", .text), ("wallets", .bool), ("flags", .bool), ("listings", .bool), ("updatedAt", .integer)],
            order: { _ in "owner" }
        ),
        Table(
            name: "market_state",
            columns: [("exchange", .text), ("symbol", .text), ("aspect", .text), ("scope", .text), ("value", .text), ("at", .integer)],
            order: { _ in "exchange, symbol, aspect, scope" }
        ),
        // The id is the engine's own (numbered again on import, in the same order).
        Table(
            name: "market_event",
            columns: [
                ("exchange", .text), ("symbol", .text), ("kind", .text), ("scope", .text), ("flag", .text), ("at", .integer),
                ("price", .real), ("price1h", .real), ("price24h", .real), ("price7d", .real),
            ],
            order: { _ in "at, id" }
        ),
        Table(
            name: "webhook",
            columns: [
                ("id", .text), ("owner", .text), ("url", .text), ("secret", .text), ("createdAt", .integer), ("failures", .integer),
                ("disabled", .bool), ("kind", .text), ("p256dh", .text), ("auth", .text), ("lang", .text), ("quietStart", .integer),
                ("quietEnd", .integer), ("timeZone", .text), ("dailyCap", .integer), ("capDay", .integer), ("capCount", .integer),
            ],
            order: { _ in "createdAt, id" },
            defaults: ["kind": .text("generic"), "lang": .text("ko"), "capDay": .integer(0), "capCount": .integer(0)]
        ),
        Table(
            name: "webhook_delivery",
            columns: [
                ("webhookID", .text), ("firingID", .text), ("status", .integer), ("attempt", .integer), ("ok", .bool),
                ("error", .text), ("at", .integer),
            ],
            order: { _ in "seq" }
        ),
        Table(
            name: "webhook_job",
            columns: [
                ("id", .text), ("webhookID", .text), ("firingID", .text), ("body", .text), ("attempt", .integer), ("dueAt", .integer),
                ("lease", .integer), ("held", .bool),
            ],
            order: { _ in "dueAt, id" },
            defaults: ["held": .bool(false)]
        ),
        // The prices of 2027-01-01 00:00: the exchanges' candles of that minute may not last.
        Table(
            name: "deemed_price",
            columns: [
                ("instant", .integer), ("exchange", .text), ("coin", .text), ("source", .text), ("price", .text), ("tradedAt", .integer),
                ("recordedAt", .integer),
            ],
            order: { _ in "instant, coin, exchange, source" }
        ),
        // Sealed under the server key above: the export is a secret, but shows no exchange key.
        Table(
            name: "exchange_key",
            columns: [
                ("owner", .text), ("exchange", .text), ("sealed", .blob), ("hint", .text), ("createdAt", .integer), ("problem", .text),
                ("checkedAt", .integer),
            ],
            order: { _ in "createdAt, owner, exchange" }
        ),
    ]

    public enum Problem: Error, Equatable, Sendable {
        /// Line `line` is not a row of a known table.
        case badLine(line: Int, reason: String)
        /// The target already holds data (import into an empty store, or pass `replace`).
        case notEmpty(table: String)
    }

    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// One value of a row in the file.
    enum Cell: Codable, Equatable {
        case null
        case bool(Bool)
        case integer(Int64)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Int64.self) {
                self = .integer(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let flag): try container.encode(flag)
            case .integer(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            }
        }
    }

    struct Line: Codable {
        var sise: String?
        var version: Int?
        var migrations: [String]?
        var table: String?
        var row: [String: Cell]?
    }

    /// Every row, as JSON lines handed to `write` (header first); returns rows per table.
    @discardableResult
    public func export(_ write: @Sendable (String) throws -> Void) async throws -> [String: Int] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = Line(sise: "export", version: 1, migrations: try await database.appliedMigrations())
        try write(String(decoding: try encoder.encode(header), as: UTF8.self))
        var counts: [String: Int] = [:]
        let dialect = database.dialect
        for table in Self.tables {
            let names = table.columns.map(\.name).joined(separator: ", ")
            let rows = try await database.read { db in try await db.query("SELECT \(names) FROM \(table.name) ORDER BY \(table.order(dialect))") }
            for row in rows {
                let cells = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, Self.cell(row[$0.name], $0.kind)) })
                try write(String(decoding: try encoder.encode(Line(table: table.name, row: cells)), as: UTF8.self))
            }
            counts[table.name] = rows.count
        }
        return counts
    }

    /// Reads an export and writes every row in one transaction; returns rows per table.
    /// - Throws: `Problem.badLine` naming the first bad line (nothing is written),
    ///   `Problem.notEmpty` when the store already holds data and `replace` is false.
    @discardableResult
    public func importLines(_ lines: [String], replace: Bool = false) async throws -> [String: Int] {
        let byName = Dictionary(uniqueKeysWithValues: Self.tables.map { ($0.name, $0) })
        let decoder = JSONDecoder()
        var rows: [(table: Table, values: [SQLValue])] = []
        for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let number = index + 1
            guard let parsed = try? decoder.decode(Line.self, from: Data(line.utf8)) else {
                throw Problem.badLine(line: number, reason: "not a JSON object of an export")
            }
            if parsed.sise == "export" { continue }
            guard let name = parsed.table, let table = byName[name] else { throw Problem.badLine(line: number, reason: "unknown table") }
            guard let row = parsed.row else { throw Problem.badLine(line: number, reason: "no row") }
            var values: [SQLValue] = []
            for column in table.columns {
                guard let value = Self.value(row[column.name] ?? table.defaults[column.name] ?? .null, column.kind) else {
                    throw Problem.badLine(line: number, reason: "\(name).\(column.name) is not \(column.kind)")
                }
                values.append(value)
            }
            rows.append((table, values))
        }
        let ordered = rows
        return try await database.write { db in
            if replace {
                for table in Self.tables.reversed() { try await db.execute("DELETE FROM \(table.name)") }
            } else {
                for table in Self.tables where !table.serverMade {
                    if try await db.exists("SELECT 1 FROM \(table.name) LIMIT 1") { throw Problem.notEmpty(table: table.name) }
                }
                for table in Self.tables where table.serverMade && ordered.contains(where: { $0.table.name == table.name }) {
                    try await db.execute("DELETE FROM \(table.name)")
                }
            }
            var counts: [String: Int] = [:]
            for (table, values) in ordered {
                let names = table.columns.map(\.name).joined(separator: ", ")
                let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
                try await db.execute("INSERT INTO \(table.name) (\(names)) VALUES (\(marks))", values)
                counts[table.name, default: 0] += 1
            }
            return counts
        }
    }

    static func cell(_ value: SQLValue, _ kind: Kind) -> Cell {
        switch (value, kind) {
        case (.null, _): .null
        case (.bool(let flag), _): .bool(flag)
        case (.integer(let number), .bool): .bool(number != 0)
        case (.integer(let number), _): .integer(number)
        case (.real(let number), _): Int64(exactly: number).map(Cell.integer) ?? .text(String(number))
        case (.text(let text), .blob): .text(Data(text.utf8).base64EncodedString())
        case (.text(let text), _): .text(text)
        case (.blob(let bytes), _): .text(bytes.base64EncodedString())
        }
    }

    static func value(_ cell: Cell, _ kind: Kind) -> SQLValue? {
        switch (cell, kind) {
        case (.null, _): .null
        case (.text(let text), .text): .text(text)
        case (.text(let text), .blob): Data(base64Encoded: text).map(SQLValue.blob)
        case (.bool(let flag), .bool): .bool(flag)
        case (.integer(let number), .integer): .integer(number)
        case (.integer(let number), .real): .real(Double(number))
        case (.text(let text), .real): Double(text).flatMap { $0.isFinite ? SQLValue.real($0) : nil }
        default: nil
        }
    }
}
