import Foundation
import SiseCore

/// What an owner keeps beside favorites — portfolio transactions, alert rules, their firings,
/// webhooks (chat presets and push subscriptions among them), exchange keys — removed or handed over in one place, so no table is forgotten.
public struct OwnerData: Sendable {
    static let tables = ["portfolio_transaction", "alert", "alert_firing", "webhook", "exchange_key"]
    private let database: AppDatabase
    private let limits: Limits

    /// What one owner may keep; a move never takes an account past them.
    public struct Limits: Sendable {
        public var rules: Int
        public var webhooks: Int
        public var pushSubscriptions: Int

        public init(rules: Int = 200, webhooks: Int = 5, pushSubscriptions: Int = AlertStore.maxPushSubscriptions) {
            self.rules = rules
            self.webhooks = webhooks
            self.pushSubscriptions = pushSubscriptions
        }
    }

    public init(database: AppDatabase, limits: Limits = Limits()) {
        self.database = database
        self.limits = limits
    }

    /// Removes everything `owner` keeps in these tables (webhook deliveries and queued jobs
    /// follow their webhook).
    static func delete(_ owner: String, in db: any SQLConnection) async throws {
        for table in tables { try await db.execute("DELETE FROM \(table) WHERE owner = ?", owner) }
    }

    /// A device's anonymous data joins the account that logs in on it: transactions move when the
    /// combined ledger still adds up (otherwise they stay on the device, untouched); alert rules,
    /// webhooks and push subscriptions move as far as the account's limits leave room (the newest
    /// first; the rest stay on the device — logging in from many devices never takes an account
    /// past a limit), and the firings of every rule that moved or is gone. A move, not a copy:
    /// logging in twice changes nothing more. Returns the account's rules (the alert engine re-reads them).
    public func move(from device: String, into account: String) async throws -> [AlertRule] {
        guard device != account, !device.isEmpty else { return [] }
        return try await database.write { db in
            let mine = try await PortfolioStore.fetch(db, owner: account)
            let theirs = try await PortfolioStore.fetch(db, owner: device)
            if !theirs.isEmpty, (try? PortfolioLedger.positions(mine + theirs)) != nil {
                try await db.execute("UPDATE portfolio_transaction SET owner = ? WHERE owner = ?", account, device)
            }
            try await Self.move("alert", "TRUE", limits.rules, from: device, into: account, db)
            try await Self.move("webhook", "kind <> 'push'", limits.webhooks, from: device, into: account, db)
            try await Self.move("webhook", "kind = 'push'", limits.pushSubscriptions, from: device, into: account, db)
            try await db.execute(
                "UPDATE alert_firing SET owner = ? WHERE owner = ? AND alertID NOT IN (SELECT id FROM alert WHERE owner = ?)",
                account,
                device,
                device
            )
            return try await AlertStore.rules(db, where: "owner = ?", [account])
        }
    }

    /// Moves the device's newest rows of `table` matching `kind` into the account, as many as its
    /// `limit` leaves room for.
    private static func move(
        _ table: String,
        _ kind: String,
        _ limit: Int,
        from device: String,
        into account: String,
        _ db: any SQLConnection
    ) async throws {
        let room = limit - (try await db.count("SELECT COUNT(*) FROM \(table) WHERE owner = ? AND \(kind)", account))
        guard room > 0 else { return }
        try await db.execute(
            """
            UPDATE \(table) SET owner = ? WHERE id IN (SELECT id FROM \(table) WHERE owner = ? AND \(kind) ORDER BY createdAt DESC, id LIMIT ?)
            """,
            account,
            device,
            room
        )
    }
}
