import Foundation
import SiseCore

/// Alert rules, their firings and the owners' webhooks (with a delivery log), in the app's database.
/// Rules and firings here; destinations in AlertStore+Webhooks.swift, the delivery queue in
/// AlertStore+Queue.swift.
public struct AlertStore: Sendable {
    let database: AppDatabase
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
        try await database.read { db in try await Self.rules(db, where: "owner = ? ORDER BY createdAt, id", [owner]) }
    }

    /// Every enabled rule of every owner (what the engine evaluates).
    public func enabledRules() async throws -> [AlertRule] {
        try await database.read { db in try await Self.rules(db, where: "enabled = TRUE", []) }
    }

    /// Enabled rules a page at a time, in id order, after `id` (the engine's start-up: a million
    /// rules are never read into memory at once beside the book they go into).
    public func enabledRules(after id: String, limit: Int) async throws -> [AlertRule] {
        try await database.read { db in try await Self.rules(db, where: "enabled = TRUE AND id > ? ORDER BY id LIMIT ?", [id, limit]) }
    }

    public func add(_ rule: AlertRule) async throws {
        let limit = maxRules
        try await database.write { db in
            let count = try await db.count("SELECT COUNT(*) FROM alert WHERE owner = ?", rule.owner)
            guard count < limit else { throw StoreError.tooManyRecords(limit: limit) }
            try await Self.insert(rule, db)
        }
    }

    /// Many rules at once, in transactions of 10,000, with no per-owner limit: for loading a
    /// store at scale (the alert benchmark's million rules), not for what people send.
    public func addMany(_ rules: [AlertRule]) async throws {
        var start = 0
        while start < rules.count {
            let batch = Array(rules[start..<min(rules.count, start + 10_000)])
            try await database.write { db in for rule in batch { try await Self.insert(rule, db) } }
            start += batch.count
        }
    }

    private static func insert(_ rule: AlertRule, _ db: any SQLConnection) async throws {
        try await db.execute(
            """
            INSERT INTO alert (id, owner, exchange, market, type, value, windowMinutes, venue, holdMinutes, recurring, cooldownSeconds,
                enabled, createdAt, lastFiredAt, indicator, target)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            rule.id,
            rule.owner,
            rule.exchange.rawValue,
            rule.market.code,
            rule.kind.rawValue,
            "\(rule.value)",
            rule.windowMinutes,
            rule.venue?.rawValue,
            rule.holdMinutes,
            rule.recurring,
            rule.cooldownSeconds,
            rule.enabled,
            rule.createdAt,
            rule.lastFiredAt,
            rule.indicator?.code,
            rule.target?.rawValue
        )
    }

    /// Saves a changed rule of its owner; false when the owner has no such rule.
    public func update(_ rule: AlertRule) async throws -> Bool {
        try await database.write { db in
            try await db.execute(
                """
                UPDATE alert SET value = ?, windowMinutes = ?, venue = ?, holdMinutes = ?, recurring = ?, cooldownSeconds = ?, enabled = ?,
                    lastFiredAt = ?, indicator = ?
                WHERE id = ? AND owner = ?
                """,
                "\(rule.value)",
                rule.windowMinutes,
                rule.venue?.rawValue,
                rule.holdMinutes,
                rule.recurring,
                rule.cooldownSeconds,
                rule.enabled,
                rule.lastFiredAt,
                rule.indicator?.code,
                rule.id,
                rule.owner
            ) > 0
        }
    }

    public func remove(owner: String, id: String) async throws -> Bool {
        try await database.write { db in
            let removed = try await db.execute("DELETE FROM alert WHERE owner = ? AND id = ?", owner, id) > 0
            if removed { try await db.execute("DELETE FROM alert_claim WHERE alertID = ?", id) }
            return removed
        }
    }

    /// Two replicas that see the same crossing fire it within this much of each other (the same
    /// tick carries the same exchange timestamp; a replica that armed the rule later, on the
    /// other's notice, evaluates it at its next tick). A rule fires at most once per this window.
    public static let replicaWindow: Int64 = 10_000

    /// Claims a firing and keeps it in the history; the rule notes it (a one-shot rule is
    /// disabled). The claim is one conditional update of the rule's row — it must still be
    /// enabled and must not have fired within its cool-down (at least `replicaWindow`) — so when
    /// several replicas evaluate the same tick, exactly one records and delivers it.
    /// - Returns: whether this firing is the one (false: another replica's, or the rule is gone).
    @discardableResult
    public func record(_ firing: AlertFiring, rule: AlertRule) async throws -> Bool {
        let body = String(decoding: try JSONEncoder().encode(firing), as: UTF8.self)
        let since = firing.at - max(Int64(rule.cooldownSeconds) * 1_000, Self.replicaWindow)
        // A recurring wide rule fires for each market of its list on that market's own clock.
        if rule.target != nil, rule.recurring { return try await recordMember(firing, rule: rule, body: body, since: since) }
        return try await database.write { db in
            let claimed = try await db.execute(
                """
                UPDATE alert SET lastFiredAt = ?, enabled = ?
                WHERE id = ? AND enabled = TRUE AND (lastFiredAt IS NULL OR lastFiredAt <= ?)
                """,
                firing.at,
                rule.enabled,
                rule.id,
                since
            )
            guard claimed == 1 else { return false }
            return try await Self.keep(firing, body: body, owner: rule.owner, db)
        }
    }

    /// A wide rule's firing on one market, claimed in `alert_claim` (one row a rule and market).
    private func recordMember(_ firing: AlertFiring, rule: AlertRule, body: String, since: Int64) async throws -> Bool {
        try await database.write { db in
            guard try await db.execute("UPDATE alert SET lastFiredAt = ? WHERE id = ? AND enabled = TRUE", firing.at, rule.id) == 1 else {
                return false
            }
            let claimed = try await db.execute(
                """
                INSERT INTO alert_claim (alertID, market, lastFiredAt) VALUES (?, ?, ?)
                ON CONFLICT (alertID, market) DO UPDATE SET lastFiredAt = excluded.lastFiredAt WHERE alert_claim.lastFiredAt <= ?
                """,
                rule.id,
                firing.market,
                firing.at,
                since
            )
            guard claimed == 1 else { return false }
            return try await Self.keep(firing, body: body, owner: rule.owner, db)
        }
    }

    /// Adds a firing to its owner's history unless one of its id is there; the history keeps
    /// the newest 500 firings of an owner.
    static func keep(_ firing: AlertFiring, body: String, owner: String, _ db: any SQLConnection) async throws -> Bool {
        let added = try await db.execute(
            "INSERT INTO alert_firing (id, alertID, owner, body, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            firing.id,
            firing.alertId,
            owner,
            body,
            firing.at
        )
        guard added == 1 else { return false }
        try await db.execute(
            """
            DELETE FROM alert_firing WHERE owner = ? AND id NOT IN (SELECT id FROM alert_firing WHERE owner = ? ORDER BY at DESC LIMIT 500)
            """,
            owner,
            owner
        )
        return true
    }

    /// The owner's firings, newest first.
    public func history(owner: String, limit: Int = 100) async throws -> [AlertFiring] {
        let order = database.dialect.insertionOrder
        return try await database.read { db in
            try await db.strings("SELECT body FROM alert_firing WHERE owner = ? ORDER BY at DESC, \(order) DESC LIMIT ?", owner, limit)
                .compactMap { try? JSONDecoder().decode(AlertFiring.self, from: Data($0.utf8)) }
        }
    }

    static func rules(_ db: any SQLConnection, where condition: String, _ arguments: [any SQLBindable]) async throws -> [AlertRule] {
        try await db.query("SELECT * FROM alert WHERE " + condition, arguments).compactMap { row -> AlertRule? in
            let target = row.string("target").flatMap(AlertTarget.init(rawValue:))
            guard let id = row.string("id"), let owner = row.string("owner"),
                let exchange = row.string("exchange").flatMap(Exchange.init(rawValue:)),
                let market = target.map(\.market) ?? row.string("market").flatMap(MarketID.init),
                let kind = row.string("type").flatMap(AlertKind.init(rawValue:)),
                let value = row.string("value").flatMap({ Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }),
                let cooldown = row.int("cooldownSeconds"), let createdAt = row.int64("createdAt")
            else { return nil }
            return AlertRule(
                id: id,
                owner: owner,
                exchange: exchange,
                market: market,
                kind: kind,
                value: value,
                windowMinutes: row.int("windowMinutes"),
                venue: row.string("venue").flatMap(GlobalVenue.init(rawValue:)),
                holdMinutes: row.int("holdMinutes"),
                indicator: row.string("indicator").flatMap(IndicatorSignal.init(code:)),
                target: target,
                recurring: row.bool("recurring") ?? false,
                cooldownSeconds: cooldown,
                enabled: row.bool("enabled") ?? false,
                createdAt: createdAt,
                lastFiredAt: row.int64("lastFiredAt")
            )
        }
    }
}
