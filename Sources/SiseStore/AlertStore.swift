import Foundation
import GRDB
import SiseCore

/// Alert rules, their firings and the owners' webhooks (with a delivery log), in SQLite.
public struct AlertStore: Sendable {
    private let database: AppDatabase
    public let maxRules: Int
    public let maxWebhooks: Int
    /// A webhook is disabled after this many failed deliveries in a row.
    public static let failuresBeforeDisabling = 5

    public init(database: AppDatabase, maxRules: Int = 200, maxWebhooks: Int = 5) {
        self.database = database
        self.maxRules = maxRules
        self.maxWebhooks = maxWebhooks
    }

    // MARK: - Rules

    public func rules(owner: String) async throws -> [AlertRule] {
        try await database.read { db in try Self.rules(db, sql: "WHERE owner = ? ORDER BY createdAt, id", [owner]) }
    }

    /// Every enabled rule of every owner (what the engine evaluates).
    public func enabledRules() async throws -> [AlertRule] {
        try await database.read { db in try Self.rules(db, sql: "WHERE enabled = 1", []) }
    }

    public func add(_ rule: AlertRule) async throws {
        let limit = maxRules
        try await database.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM alert WHERE owner = ?", arguments: [rule.owner]) ?? 0
            guard count < limit else { throw StoreError.tooManyRecords(limit: limit) }
            try db.execute(sql: """
                INSERT INTO alert (id, owner, exchange, market, type, value, windowMinutes, recurring, cooldownSeconds, enabled, createdAt, lastFiredAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [rule.id, rule.owner, rule.exchange.rawValue, rule.market.code, rule.kind.rawValue, "\(rule.value)",
                                 rule.windowMinutes, rule.recurring, rule.cooldownSeconds, rule.enabled, rule.createdAt, rule.lastFiredAt])
        }
    }

    /// Saves a changed rule of its owner; false when the owner has no such rule.
    public func update(_ rule: AlertRule) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: """
                UPDATE alert SET value = ?, windowMinutes = ?, recurring = ?, cooldownSeconds = ?, enabled = ?, lastFiredAt = ?
                WHERE id = ? AND owner = ?
                """, arguments: ["\(rule.value)", rule.windowMinutes, rule.recurring, rule.cooldownSeconds, rule.enabled, rule.lastFiredAt,
                                 rule.id, rule.owner])
            return db.changesCount > 0
        }
    }

    public func remove(owner: String, id: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM alert WHERE owner = ? AND id = ?", arguments: [owner, id])
            return db.changesCount > 0
        }
    }

    /// A firing, kept in the history; the rule notes it (and a one-shot rule is disabled).
    public func record(_ firing: AlertFiring, rule: AlertRule) async throws {
        let body = String(decoding: try JSONEncoder().encode(firing), as: UTF8.self)
        try await database.write { db in
            try db.execute(sql: "INSERT INTO alert_firing (id, alertID, owner, body, at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [firing.id, firing.alertId, rule.owner, body, firing.at])
            try db.execute(sql: "UPDATE alert SET lastFiredAt = ?, enabled = ? WHERE id = ?", arguments: [firing.at, rule.enabled, rule.id])
            // The history keeps the newest 500 firings of an owner.
            try db.execute(sql: """
                DELETE FROM alert_firing WHERE owner = ? AND id NOT IN (SELECT id FROM alert_firing WHERE owner = ? ORDER BY at DESC LIMIT 500)
                """, arguments: [rule.owner, rule.owner])
        }
    }

    /// The owner's firings, newest first.
    public func history(owner: String, limit: Int = 100) async throws -> [AlertFiring] {
        try await database.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM alert_firing WHERE owner = ? ORDER BY at DESC, rowid DESC LIMIT ?",
                                arguments: [owner, limit])
                .compactMap { try? JSONDecoder().decode(AlertFiring.self, from: Data($0.utf8)) }
        }
    }

    static func rules(_ db: Database, sql: String, _ arguments: [any DatabaseValueConvertible]) throws -> [AlertRule] {
        try Row.fetchAll(db, sql: "SELECT * FROM alert " + sql, arguments: StatementArguments(arguments)).compactMap { row -> AlertRule? in
            guard let exchange = Exchange(rawValue: row["exchange"]), let market = MarketID(row["market"] as String),
                  let kind = AlertKind(rawValue: row["type"]),
                  let value = Decimal(string: row["value"], locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            return AlertRule(id: row["id"], owner: row["owner"], exchange: exchange, market: market, kind: kind, value: value,
                             windowMinutes: row["windowMinutes"], recurring: row["recurring"], cooldownSeconds: row["cooldownSeconds"],
                             enabled: row["enabled"], createdAt: row["createdAt"], lastFiredAt: row["lastFiredAt"])
        }
    }

    // MARK: - Webhooks

    public struct Webhook: Sendable, Equatable, Codable {
        public var id: String
        public var owner: String
        public var url: String
        public var secret: String
        public var createdAt: Int64
        public var failures: Int
        public var disabled: Bool

        public init(id: String, owner: String, url: String, secret: String, createdAt: Int64, failures: Int = 0, disabled: Bool = false) {
            self.id = id
            self.owner = owner
            self.url = url
            self.secret = secret
            self.createdAt = createdAt
            self.failures = failures
            self.disabled = disabled
        }
    }

    public struct Delivery: Sendable, Equatable, Codable {
        public var webhookId: String
        public var firingId: String
        public var status: Int?
        public var attempt: Int
        public var ok: Bool
        public var error: String?
        public var at: Int64

        public init(webhookId: String, firingId: String, status: Int? = nil, attempt: Int, ok: Bool, error: String? = nil, at: Int64) {
            self.webhookId = webhookId
            self.firingId = firingId
            self.status = status
            self.attempt = attempt
            self.ok = ok
            self.error = error
            self.at = at
        }
    }

    public func webhooks(owner: String) async throws -> [Webhook] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM webhook WHERE owner = ? ORDER BY createdAt, id", arguments: [owner]).map(Self.webhook)
        }
    }

    public func addWebhook(_ hook: Webhook) async throws {
        let limit = maxWebhooks
        try await database.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM webhook WHERE owner = ?", arguments: [hook.owner]) ?? 0
            guard count < limit else { throw StoreError.tooManyRecords(limit: limit) }
            try db.execute(sql: "INSERT INTO webhook (id, owner, url, secret, createdAt, failures, disabled) VALUES (?, ?, ?, ?, ?, 0, 0)",
                           arguments: [hook.id, hook.owner, hook.url, hook.secret, hook.createdAt])
        }
    }

    public func removeWebhook(owner: String, id: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM webhook WHERE owner = ? AND id = ?", arguments: [owner, id])
            return db.changesCount > 0
        }
    }

    /// Logs an attempt; a success clears the failure count, the `failuresBeforeDisabling`-th
    /// failure in a row disables the webhook. Returns the webhook as it now stands.
    @discardableResult
    public func record(_ delivery: Delivery) async throws -> Webhook? {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO webhook_delivery (webhookID, firingID, status, attempt, ok, error, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           arguments: [delivery.webhookId, delivery.firingId, delivery.status, delivery.attempt, delivery.ok,
                                       delivery.error.map { String($0.prefix(200)) }, delivery.at])
            if delivery.ok {
                try db.execute(sql: "UPDATE webhook SET failures = 0 WHERE id = ?", arguments: [delivery.webhookId])
            } else {
                try db.execute(sql: "UPDATE webhook SET failures = failures + 1, disabled = (failures + 1 >= ?) WHERE id = ?",
                               arguments: [Self.failuresBeforeDisabling, delivery.webhookId])
            }
            // The log keeps the newest 100 attempts of a webhook.
            try db.execute(sql: """
                DELETE FROM webhook_delivery WHERE webhookID = ? AND seq NOT IN
                (SELECT seq FROM webhook_delivery WHERE webhookID = ? ORDER BY seq DESC LIMIT 100)
                """, arguments: [delivery.webhookId, delivery.webhookId])
            return try Row.fetchOne(db, sql: "SELECT * FROM webhook WHERE id = ?", arguments: [delivery.webhookId]).map(Self.webhook)
        }
    }

    /// A webhook's delivery log, newest first.
    public func deliveries(owner: String, webhookID: String, limit: Int = 50) async throws -> [Delivery] {
        try await database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.* FROM webhook_delivery d JOIN webhook w ON w.id = d.webhookID
                WHERE w.owner = ? AND d.webhookID = ? ORDER BY d.seq DESC LIMIT ?
                """, arguments: [owner, webhookID, limit]).map { row in
                Delivery(webhookId: row["webhookID"], firingId: row["firingID"], status: row["status"], attempt: row["attempt"],
                         ok: row["ok"], error: row["error"], at: row["at"])
            }
        }
    }

    private static func webhook(_ row: Row) -> Webhook {
        Webhook(id: row["id"], owner: row["owner"], url: row["url"], secret: row["secret"], createdAt: row["createdAt"],
                failures: row["failures"], disabled: row["disabled"])
    }
}
