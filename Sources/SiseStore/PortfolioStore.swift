import Foundation
import GRDB
import SiseCore

/// Portfolio transactions per owner (a device, an account, or the terminal's `local`), in
/// SQLite. Every write replays the owner's whole ledger inside its transaction, so a sell of
/// more than was held at its time — or a deletion that would make a later sell do so — is
/// refused and nothing is stored.
public struct PortfolioStore: Sendable {
    private let database: AppDatabase
    /// The most transactions one owner may keep.
    public let limit: Int

    public init(database: AppDatabase, limit: Int = 10_000) {
        self.database = database
        self.limit = limit
    }

    public func transactions(owner: String) async throws -> [PortfolioTransaction] {
        try await database.read { db in try Self.fetch(db, owner: owner) }
    }

    /// Adds transactions (one, or a whole import) atomically; returns them as stored.
    @discardableResult
    public func add(owner: String, _ transactions: [PortfolioTransaction]) async throws -> [PortfolioTransaction] {
        let limit = limit
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        return try await database.write { db in
            let existing = try Self.fetch(db, owner: owner)
            guard existing.count + transactions.count <= limit else { throw StoreError.tooManyRecords(limit: limit) }
            try Self.check(existing + transactions)
            for t in transactions {
                try db.execute(sql: """
                    INSERT INTO portfolio_transaction (id, owner, kind, exchange, market, quantity, price, fee, at, note, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [t.id, owner, t.kind.rawValue, t.exchange.rawValue, t.market.code, "\(t.quantity)", "\(t.price)",
                                     "\(t.fee)", t.at, t.note, now])
            }
            return transactions
        }
    }

    /// Removes one transaction; false when the owner has none with that id.
    public func remove(owner: String, id: String) async throws -> Bool {
        try await database.write { db in
            let existing = try Self.fetch(db, owner: owner)
            guard existing.contains(where: { $0.id == id }) else { return false }
            try Self.check(existing.filter { $0.id != id })
            try db.execute(sql: "DELETE FROM portfolio_transaction WHERE owner = ? AND id = ?", arguments: [owner, id])
            return true
        }
    }

    /// Removes every transaction of `owner`; returns how many there were.
    @discardableResult
    public func clear(owner: String) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM portfolio_transaction WHERE owner = ?", arguments: [owner])
            return db.changesCount
        }
    }

    /// The ledger must add up (no sell of more than was held at its time).
    private static func check(_ transactions: [PortfolioTransaction]) throws {
        do throws(PortfolioLedger.Problem) { _ = try PortfolioLedger.positions(transactions) } catch { throw StoreError.ledger(error) }
    }

    static func fetch(_ db: Database, owner: String) throws -> [PortfolioTransaction] {
        try Row.fetchAll(db, sql: """
            SELECT id, kind, exchange, market, quantity, price, fee, at, note FROM portfolio_transaction
            WHERE owner = ? ORDER BY at, id
            """, arguments: [owner]).compactMap { row -> PortfolioTransaction? in
            guard let kind = TransactionKind(rawValue: row["kind"]), let exchange = Exchange(rawValue: row["exchange"]),
                  let market = MarketID(row["market"] as String),
                  let quantity = Decimal(string: row["quantity"], locale: Self.posix), let price = Decimal(string: row["price"], locale: Self.posix),
                  let fee = Decimal(string: row["fee"], locale: Self.posix) else { return nil }
            return PortfolioTransaction(id: row["id"], kind: kind, exchange: exchange, market: market, quantity: quantity, price: price,
                                        fee: fee, at: row["at"], note: row["note"])
        }
    }

    private static let posix = Locale(identifier: "en_US_POSIX")
}
