import Foundation
import SiseCore

/// 변동 알림 in the store: each owner's choice of topics (`ChangeAlerts`), who is told of an
/// event (the topic on, and for a coin's own news a favourite or a holding of it on that
/// exchange), and each telling kept once in the owner's alert history.
public struct ChangeAlertStore: Sendable {
    private let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    public func settings(owner: String) async throws -> ChangeAlerts {
        try await database.read { db in
            guard let row = try await db.queryOne("SELECT wallets, flags, listings FROM change_alert WHERE owner = ?", owner) else {
                return ChangeAlerts()
            }
            return ChangeAlerts(wallets: row.bool("wallets") ?? false, flags: row.bool("flags") ?? false, listings: row.bool("listings") ?? false)
        }
    }

    public func set(_ alerts: ChangeAlerts, owner: String, at: Int64) async throws {
        try await database.write { db in
            try await db.execute(
                """
                INSERT INTO change_alert (owner, wallets, flags, listings, updatedAt) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (owner) DO UPDATE SET wallets = excluded.wallets, flags = excluded.flags, listings = excluded.listings,
                    updatedAt = excluded.updatedAt
                """,
                owner,
                alerts.wallets,
                alerts.flags,
                alerts.listings,
                at
            )
        }
    }

    /// The owners told of `event`.
    public func audience(_ event: MarketEvent) async throws -> [String] {
        let (topic, ownCoinsOnly) = ChangeAlerts.topic(of: event.kind)
        return try await database.read { db in
            let wanting = try await db.strings("SELECT owner FROM change_alert WHERE \(topic.rawValue) = ?", true)
            guard ownCoinsOnly, !wanting.isEmpty else { return wanting.sorted() }
            let markets = FavoriteItem.quotes.sorted().map { "\($0)-\(event.symbol)" }
            // A favourite is `KRW-BTC` (the default exchange's) or `korbit:KRW-BTC`.
            let items = markets.map { "\(event.exchange.rawValue):\($0)" } + (event.exchange == .default ? markets : [])
            let marks = { (count: Int) in Array(repeating: "?", count: count).joined(separator: ", ") }
            var owners = Set(
                try await db.query("SELECT DISTINCT owner FROM favorite WHERE item IN (\(marks(items.count)))", items.map { $0 as any SQLBindable })
                    .compactMap { $0.string("owner") }
            )
            var held: [String: Decimal] = [:]
            for row in try await db.query(
                "SELECT owner, kind, quantity FROM portfolio_transaction WHERE exchange = ? AND market IN (\(marks(markets.count)))",
                [event.exchange.rawValue] + markets.map { $0 as any SQLBindable }
            ) {
                guard let owner = row.string("owner"), let kind = row.string("kind").flatMap(TransactionKind.init(rawValue:)),
                    let quantity = row.string("quantity").flatMap({ Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) })
                else { continue }
                held[owner, default: 0] += kind == .buy || kind == .deposit ? quantity : -quantity
            }
            owners.formUnion(held.filter { $0.value > 0 }.keys)
            return wanting.filter(owners.contains).sorted()
        }
    }

    /// Keeps the telling in the owner's alert history; false when it is there already (told once).
    public func record(_ firing: AlertFiring) async throws -> Bool {
        let body = String(decoding: try JSONEncoder().encode(firing), as: UTF8.self)
        return try await database.write { db in try await AlertStore.keep(firing, body: body, owner: firing.owner, db) }
    }
}
