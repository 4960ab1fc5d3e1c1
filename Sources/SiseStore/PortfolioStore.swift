import Foundation
import SiseCore

/// Portfolio transactions per owner (a device, an account, or the terminal's `local`), in the
/// app's database. Every write replays the owner's whole ledger inside its transaction, so a sell of
/// more than was held at its time — or a deletion that would make a later sell do so — is
/// refused and nothing is stored.
public struct PortfolioStore: Sendable {
    private let database: AppDatabase
    /// The most transactions one owner may keep.
    public let limit: Int

    /// The wall clock records are stamped with (the composition root's).
    private let clock: WallClock

    /// Transactions an owner may hold in all once trades are synced from exchange accounts.
    public let syncLimit: Int

    public init(database: AppDatabase, limit: Int = 10_000, syncLimit: Int = 100_000, clock: WallClock = .system) {
        self.syncLimit = max(syncLimit, limit)
        self.clock = clock
        self.database = database
        self.limit = limit
    }

    public func transactions(owner: String) async throws -> [PortfolioTransaction] {
        try await database.read { db in try await Self.fetch(db, owner: owner) }
    }

    /// Adds transactions (one, or a whole import) atomically; returns them as stored.
    @discardableResult
    public func add(owner: String, _ transactions: [PortfolioTransaction]) async throws -> [PortfolioTransaction] {
        try await add(owner: owner) { _ in (transactions, transactions) }
    }

    /// Imports a file's transactions atomically, leaving out the trades the owner already has
    /// (`PortfolioImport`): the same file imported twice adds nothing.
    public func importing(owner: String, _ transactions: [PortfolioTransaction]) async throws -> PortfolioImport {
        try await add(owner: owner) { existing in
            let result = PortfolioImport(transactions, existing: existing)
            return (result, result.added)
        }
    }

    /// Keeps trades read from an exchange account (`ExchangeTrade.transaction`): those whose id
    /// the owner has not got, in one write — a sync read twice adds nothing twice. Synced trades
    /// may make a history longer than a typed one: up to `syncLimit` transactions in all.
    public func sync(owner: String, _ transactions: [PortfolioTransaction]) async throws -> (added: Int, kept: Int) {
        try await add(owner: owner, limit: syncLimit) { existing in
            let have = Set(existing.map(\.id))
            var new: [PortfolioTransaction] = []
            var ids = Set<String>()
            for t in transactions where !have.contains(t.id) && ids.insert(t.id).inserted { new.append(t) }
            return ((new.count, transactions.count - new.count), new)
        }
    }

    /// The newest time of the owner's trades synced from `exchange` (nil: none yet): where the
    /// next sync resumes.
    public func newestSynced(owner: String, exchange: Exchange) async throws -> Int64? {
        try await transactions(owner: owner).filter { ExchangeTrade.isSynced($0.id, from: exchange) }.map(\.at).max()
    }

    /// Adds what `choose` picks given what the owner has, in one write (which PostgreSQL may run
    /// again on a conflict: `choose` decides afresh each time); returns what it says.
    private func add<Result: Sendable>(
        owner: String,
        limit: Int? = nil,
        _ choose: @escaping @Sendable ([PortfolioTransaction]) -> (Result, [PortfolioTransaction])
    )
        async throws -> Result
    {
        let (limit, syncLimit) = (limit ?? self.limit, self.syncLimit)
        let now = clock.now
        return try await database.write { db in
            let existing = try await Self.fetch(db, owner: owner)
            let (result, transactions) = choose(existing)
            // An owner whose history is synced from an exchange has the larger room for all of it.
            let room = existing.contains { ExchangeTrade.isSynced($0.id) } ? syncLimit : limit
            guard existing.count + transactions.count <= room else { throw StoreError.tooManyRecords(limit: room) }
            try Self.check(existing + transactions)
            for t in transactions {
                try await db.execute(
                    """
                    INSERT INTO portfolio_transaction (id, owner, kind, exchange, market, quantity, price, fee, at, note, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    t.id,
                    owner,
                    t.kind.rawValue,
                    t.exchange.rawValue,
                    t.market.code,
                    "\(t.quantity)",
                    "\(t.price)",
                    "\(t.fee)",
                    t.at,
                    t.note,
                    now
                )
            }
            return result
        }
    }

    /// Removes one transaction; false when the owner has none with that id.
    public func remove(owner: String, id: String) async throws -> Bool {
        try await database.write { db in
            let existing = try await Self.fetch(db, owner: owner)
            guard existing.contains(where: { $0.id == id }) else { return false }
            try Self.check(existing.filter { $0.id != id })
            try await db.execute("DELETE FROM portfolio_transaction WHERE owner = ? AND id = ?", owner, id)
            return true
        }
    }

    /// Removes every transaction of `owner`; returns how many there were.
    @discardableResult
    public func clear(owner: String) async throws -> Int {
        try await database.write { db in
            try await db.execute("DELETE FROM portfolio_transaction WHERE owner = ?", owner)
        }
    }

    /// The ledger must add up (no sell of more than was held at its time).
    private static func check(_ transactions: [PortfolioTransaction]) throws {
        do throws(PortfolioLedger.Problem) { _ = try PortfolioLedger.positions(transactions) } catch { throw StoreError.ledger(error) }
    }

    static func fetch(_ db: any SQLConnection, owner: String) async throws -> [PortfolioTransaction] {
        try await db.query(
            """
            SELECT id, kind, exchange, market, quantity, price, fee, at, note FROM portfolio_transaction
            WHERE owner = ? ORDER BY at, id
            """,
            owner
        ).compactMap { row -> PortfolioTransaction? in
            guard let id = row.string("id"), let kind = row.string("kind").flatMap(TransactionKind.init(rawValue:)),
                let exchange = row.string("exchange").flatMap(Exchange.init(rawValue:)), let market = row.string("market").flatMap(MarketID.init),
                let quantity = Self.decimal(row, "quantity"), let price = Self.decimal(row, "price"), let fee = Self.decimal(row, "fee"),
                let at = row.int64("at")
            else { return nil }
            return PortfolioTransaction(
                id: id,
                kind: kind,
                exchange: exchange,
                market: market,
                quantity: quantity,
                price: price,
                fee: fee,
                at: at,
                note: row.string("note") ?? ""
            )
        }
    }

    private static func decimal(_ row: SQLRow, _ column: String) -> Decimal? {
        row.string(column).flatMap { Decimal(string: $0, locale: posix) }
    }

    private static let posix = Locale(identifier: "en_US_POSIX")
}
