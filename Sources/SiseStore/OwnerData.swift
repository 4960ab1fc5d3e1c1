import Foundation
import SiseCore

/// What an owner keeps beside favorites — portfolio transactions, alert rules, their firings,
/// webhooks (chat presets and push subscriptions among them) — removed or handed over in one place, so no table is forgotten.
public struct OwnerData: Sendable {
    static let tables = ["portfolio_transaction"] + moving
    /// The tables whose rows follow a device into the account that logs in on it, whole.
    static let moving = ["alert", "alert_firing", "webhook"]
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Removes everything `owner` keeps in these tables (webhook deliveries and queued jobs
    /// follow their webhook).
    static func delete(_ owner: String, in db: any SQLConnection) async throws {
        for table in tables { try await db.execute("DELETE FROM \(table) WHERE owner = ?", owner) }
    }

    /// A device's anonymous data joins the account that logs in on it: transactions move when the
    /// combined ledger still adds up (otherwise they stay on the device, untouched), alerts,
    /// firings and webhooks move. A move, not a copy: logging in twice changes nothing more.
    /// Returns the rules that moved (the alert engine re-reads them).
    public func move(from device: String, into account: String) async throws -> [AlertRule] {
        guard device != account, !device.isEmpty else { return [] }
        return try await database.write { db in
            let mine = try await PortfolioStore.fetch(db, owner: account)
            let theirs = try await PortfolioStore.fetch(db, owner: device)
            if !theirs.isEmpty, (try? PortfolioLedger.positions(mine + theirs)) != nil {
                try await db.execute("UPDATE portfolio_transaction SET owner = ? WHERE owner = ?", account, device)
            }
            for table in Self.moving {
                try await db.execute("UPDATE \(table) SET owner = ? WHERE owner = ?", account, device)
            }
            return try await AlertStore.rules(db, where: "owner = ?", [account])
        }
    }
}
