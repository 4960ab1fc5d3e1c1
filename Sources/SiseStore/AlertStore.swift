import Foundation
import SiseCore

/// Alert rules, their firings and the owners' webhooks (with a delivery log), in the app's database.
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
        try await database.read { db in try await Self.rules(db, where: "owner = ? ORDER BY createdAt, id", [owner]) }
    }

    /// Every enabled rule of every owner (what the engine evaluates).
    public func enabledRules() async throws -> [AlertRule] {
        try await database.read { db in try await Self.rules(db, where: "enabled = TRUE", []) }
    }

    public func add(_ rule: AlertRule) async throws {
        let limit = maxRules
        try await database.write { db in
            let count = try await db.count("SELECT COUNT(*) FROM alert WHERE owner = ?", rule.owner)
            guard count < limit else { throw StoreError.tooManyRecords(limit: limit) }
            try await db.execute(
                """
                INSERT INTO alert (id, owner, exchange, market, type, value, windowMinutes, recurring, cooldownSeconds, enabled, createdAt, lastFiredAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                rule.id,
                rule.owner,
                rule.exchange.rawValue,
                rule.market.code,
                rule.kind.rawValue,
                "\(rule.value)",
                rule.windowMinutes,
                rule.recurring,
                rule.cooldownSeconds,
                rule.enabled,
                rule.createdAt,
                rule.lastFiredAt
            )
        }
    }

    /// Saves a changed rule of its owner; false when the owner has no such rule.
    public func update(_ rule: AlertRule) async throws -> Bool {
        try await database.write { db in
            try await db.execute(
                """
                UPDATE alert SET value = ?, windowMinutes = ?, recurring = ?, cooldownSeconds = ?, enabled = ?, lastFiredAt = ?
                WHERE id = ? AND owner = ?
                """,
                "\(rule.value)",
                rule.windowMinutes,
                rule.recurring,
                rule.cooldownSeconds,
                rule.enabled,
                rule.lastFiredAt,
                rule.id,
                rule.owner
            ) > 0
        }
    }

    public func remove(owner: String, id: String) async throws -> Bool {
        try await database.write { db in
            try await db.execute("DELETE FROM alert WHERE owner = ? AND id = ?", owner, id) > 0
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
            try await db.execute(
                "INSERT INTO alert_firing (id, alertID, owner, body, at) VALUES (?, ?, ?, ?, ?)",
                firing.id,
                firing.alertId,
                rule.owner,
                body,
                firing.at
            )
            // The history keeps the newest 500 firings of an owner.
            try await db.execute(
                """
                DELETE FROM alert_firing WHERE owner = ? AND id NOT IN (SELECT id FROM alert_firing WHERE owner = ? ORDER BY at DESC LIMIT 500)
                """,
                rule.owner,
                rule.owner
            )
            return true
        }
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
            guard let id = row.string("id"), let owner = row.string("owner"),
                let exchange = row.string("exchange").flatMap(Exchange.init(rawValue:)), let market = row.string("market").flatMap(MarketID.init),
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
                recurring: row.bool("recurring") ?? false,
                cooldownSeconds: cooldown,
                enabled: row.bool("enabled") ?? false,
                createdAt: createdAt,
                lastFiredAt: row.int64("lastFiredAt")
            )
        }
    }

    // MARK: - Webhooks

    /// Where a firing goes: a signed webhook (`generic`), a chat (`telegram`: `url` is the chat
    /// id and `secret` the bot token; `discord`, `slack`: `url` is the channel's webhook URL), or
    /// a browser's push subscription (`push`: `url` is its endpoint, `p256dh` and `auth` its keys).
    public struct Webhook: Sendable, Equatable, Codable {
        public enum Kind: String, Sendable, Codable, CaseIterable {
            case generic, telegram, discord, slack, push
        }

        public var id: String
        public var owner: String
        public var url: String
        public var secret: String
        public var createdAt: Int64
        public var failures: Int
        public var disabled: Bool
        public var kind: Kind
        public var p256dh: String?
        public var auth: String?
        /// The language its messages are written in (`ko`, `en`).
        public var language: String

        public init(
            id: String,
            owner: String,
            url: String,
            secret: String,
            createdAt: Int64,
            failures: Int = 0,
            disabled: Bool = false,
            kind: Kind = .generic,
            p256dh: String? = nil,
            auth: String? = nil,
            language: String = "ko"
        ) {
            self.id = id
            self.owner = owner
            self.url = url
            self.secret = secret
            self.createdAt = createdAt
            self.failures = failures
            self.disabled = disabled
            self.kind = kind
            self.p256dh = p256dh
            self.auth = auth
            self.language = language
        }
    }

    /// At most this many push subscriptions an owner (webhooks and chats: `maxWebhooks`).
    public static let maxPushSubscriptions = 10

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

    /// The owner's webhooks and chats (not push subscriptions).
    public func webhooks(owner: String) async throws -> [Webhook] {
        try await database.read { db in
            try await db.query("SELECT * FROM webhook WHERE owner = ? AND kind <> 'push' ORDER BY createdAt, id", owner).compactMap(Self.webhook)
        }
    }

    public func pushSubscriptions(owner: String) async throws -> [Webhook] {
        try await database.read { db in
            try await db.query("SELECT * FROM webhook WHERE owner = ? AND kind = 'push' ORDER BY createdAt, id", owner).compactMap(Self.webhook)
        }
    }

    /// Keeps a webhook, chat or push subscription: `maxWebhooks` of the first two an owner,
    /// `maxPushSubscriptions` of the last. A browser subscribing again (the same endpoint)
    /// replaces its row. An endpoint belongs to the owner who proved it: it moves to another
    /// owner (the browser's account after a log-in) only with the keys it was subscribed with —
    /// knowing a victim's endpoint URL takes nothing — and only within that owner's limit.
    /// Returns the row kept.
    @discardableResult
    public func addWebhook(_ hook: Webhook) async throws -> Webhook {
        let (limit, push) = hook.kind == .push ? (Self.maxPushSubscriptions, true) : (maxWebhooks, false)
        return try await database.write { db in
            if push, let old = try await db.queryOne("SELECT * FROM webhook WHERE kind = 'push' AND url = ?", hook.url).flatMap(Self.webhook) {
                if old.owner != hook.owner {
                    guard old.p256dh == hook.p256dh, old.auth == hook.auth else { throw StoreError.pushEndpointTaken }
                    let count = try await db.count("SELECT COUNT(*) FROM webhook WHERE owner = ? AND kind = 'push'", hook.owner)
                    guard count < limit else { throw StoreError.tooManyRecords(limit: limit) }
                }
                try await db.execute(
                    "UPDATE webhook SET owner = ?, p256dh = ?, auth = ?, lang = ?, failures = 0, disabled = FALSE WHERE id = ?",
                    hook.owner,
                    hook.p256dh,
                    hook.auth,
                    hook.language,
                    old.id
                )
                var kept = hook
                (kept.id, kept.createdAt) = (old.id, old.createdAt)
                return kept
            }
            let count = try await db.count("SELECT COUNT(*) FROM webhook WHERE owner = ? AND (kind = 'push') = ?", hook.owner, push)
            guard count < limit else { throw StoreError.tooManyRecords(limit: limit) }
            try await db.execute(
                """
                INSERT INTO webhook (id, owner, url, secret, createdAt, failures, disabled, kind, p256dh, auth, lang)
                VALUES (?, ?, ?, ?, ?, 0, FALSE, ?, ?, ?, ?)
                """,
                hook.id,
                hook.owner,
                hook.url,
                hook.secret,
                hook.createdAt,
                hook.kind.rawValue,
                hook.p256dh,
                hook.auth,
                hook.language
            )
            return hook
        }
    }

    /// Removes the owner's webhook or chat (`push: false`) or push subscription (`push: true`).
    public func removeWebhook(owner: String, id: String, push: Bool = false) async throws -> Bool {
        try await database.write { db in
            try await db.execute("DELETE FROM webhook WHERE owner = ? AND id = ? AND (kind = 'push') = ?", owner, id, push) > 0
        }
    }

    /// The destination is gone for good (a push service's 404 or 410): removed with its queued jobs.
    public func removeTarget(_ id: String) async throws {
        try await database.write { db in _ = try await db.execute("DELETE FROM webhook WHERE id = ?", id) }
    }

    /// Logs an attempt; a success clears the failure count, the `failuresBeforeDisabling`-th
    /// failure in a row disables the webhook. Returns the webhook as it now stands.
    @discardableResult
    public func record(_ delivery: Delivery) async throws -> Webhook? {
        try await database.write { db in
            try await db.execute(
                "INSERT INTO webhook_delivery (webhookID, firingID, status, attempt, ok, error, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                delivery.webhookId,
                delivery.firingId,
                delivery.status,
                delivery.attempt,
                delivery.ok,
                delivery.error.map { String($0.prefix(200)) },
                delivery.at
            )
            if delivery.ok {
                try await db.execute("UPDATE webhook SET failures = 0 WHERE id = ?", delivery.webhookId)
            } else {
                try await db.execute(
                    "UPDATE webhook SET failures = failures + 1, disabled = (failures + 1 >= ?) WHERE id = ?",
                    Self.failuresBeforeDisabling,
                    delivery.webhookId
                )
                // A disabled webhook's queued deliveries go with it.
                try await db.execute(
                    """
                    DELETE FROM webhook_job WHERE webhookID = ? AND EXISTS (SELECT 1 FROM webhook WHERE id = ? AND disabled = TRUE)
                    """,
                    delivery.webhookId,
                    delivery.webhookId
                )
            }
            // The log keeps the newest 100 attempts of a webhook.
            try await db.execute(
                """
                DELETE FROM webhook_delivery WHERE webhookID = ? AND seq NOT IN
                (SELECT seq FROM webhook_delivery WHERE webhookID = ? ORDER BY seq DESC LIMIT 100)
                """,
                delivery.webhookId,
                delivery.webhookId
            )
            return try await db.queryOne("SELECT * FROM webhook WHERE id = ?", delivery.webhookId).flatMap(Self.webhook)
        }
    }

    // MARK: - The delivery queue

    /// One delivery to make: a firing's body for one webhook, its attempt number.
    public struct Job: Sendable, Equatable {
        public var id: String
        public var webhook: Webhook
        public var firingId: String
        public var body: String
        public var attempt: Int
    }

    /// Queues `body` (a firing) for every enabled webhook of `owner`, due now; returns how many.
    /// The queue is a table, so a delivery outlives the replica that queued it.
    @discardableResult
    public func enqueue(firingId: String, owner: String, body: String, at now: Int64) async throws -> Int {
        try await database.write { db in
            let hooks = try await db.strings("SELECT id FROM webhook WHERE owner = ? AND disabled = FALSE ORDER BY createdAt, id", owner)
            for hook in hooks {
                try await db.execute(
                    """
                    INSERT INTO webhook_job (id, webhookID, firingID, body, attempt, dueAt, lease) VALUES (?, ?, ?, ?, 1, ?, 0)
                    ON CONFLICT (id) DO NOTHING
                    """,
                    firingId + ":" + hook,
                    hook,
                    firingId,
                    body,
                    now
                )
            }
            return hooks.count
        }
    }

    /// Takes up to `limit` due jobs for `leaseFor` ms, fairly: owners take turns (every owner's
    /// oldest due job before anyone's second), and an owner already holding `busy[owner]` of its
    /// `perOwner` deliveries gets only the rest — so one owner's flood of firings, or its slow
    /// destinations, never keeps another owner's firing waiting for a slot. No other replica takes
    /// a claimed job meanwhile (each is leased by a conditional update: a job another replica
    /// leased first is skipped); a replica that dies holding them gives them back when the lease ends.
    public func claimJobs(at now: Int64, leaseFor: Int64, limit: Int, perOwner: Int = .max, busy: [String: Int] = [:]) async throws -> [Job] {
        guard limit > 0 else { return [] }
        let perOwner = max(1, min(perOwner, limit))
        // Rows of an owner at its cap are skipped: ask for that many more.
        let fetch = limit + busy.values.reduce(0) { $0 + min($1, perOwner) }
        return try await database.write { db in
            let rows = try await db.query(
                """
                SELECT * FROM (
                    SELECT j.id AS jobid, j.firingID AS jobfiring, j.body AS jobbody, j.attempt AS jobattempt, j.dueAt AS jobdue, w.*,
                        ROW_NUMBER() OVER (PARTITION BY w.owner ORDER BY j.dueAt, j.id) AS turn
                    FROM webhook_job j JOIN webhook w ON w.id = j.webhookID
                    WHERE j.dueAt <= ? AND j.lease <= ? AND w.disabled = FALSE
                ) due WHERE turn <= ? ORDER BY turn, jobdue, jobid LIMIT ?
                """,
                now,
                now,
                perOwner,
                fetch
            )
            var jobs: [Job] = []
            var taken: [String: Int] = busy
            for row in rows where jobs.count < limit {
                guard let id = row.string("jobid"), let hook = Self.webhook(row), let firing = row.string("jobfiring"),
                    let body = row.string("jobbody"), taken[hook.owner, default: 0] < perOwner
                else { continue }
                guard try await db.execute("UPDATE webhook_job SET lease = ? WHERE id = ? AND lease <= ?", now + leaseFor, id, now) == 1 else {
                    continue
                }
                taken[hook.owner, default: 0] += 1
                jobs.append(Job(id: id, webhook: hook, firingId: firing, body: body, attempt: row.int("jobattempt") ?? 1))
            }
            return jobs
        }
    }

    /// The job is done (delivered, or given up): it leaves the queue.
    public func finishJob(_ id: String) async throws {
        try await database.write { db in try await db.execute("DELETE FROM webhook_job WHERE id = ?", id) }
    }

    /// The job failed and is tried again at `dueAt`.
    public func retryJob(_ id: String, attempt: Int, dueAt: Int64) async throws {
        try await database.write { db in
            try await db.execute("UPDATE webhook_job SET attempt = ?, dueAt = ?, lease = 0 WHERE id = ?", attempt, dueAt, id)
        }
    }

    /// Jobs waiting (for tests and metrics).
    public func queuedJobs() async throws -> Int {
        try await database.read { db in try await db.count("SELECT COUNT(*) FROM webhook_job") }
    }

    /// A webhook's delivery log, newest first.
    public func deliveries(owner: String, webhookID: String, limit: Int = 50) async throws -> [Delivery] {
        try await database.read { db in
            try await db.query(
                """
                SELECT d.* FROM webhook_delivery d JOIN webhook w ON w.id = d.webhookID
                WHERE w.owner = ? AND d.webhookID = ? ORDER BY d.seq DESC LIMIT ?
                """,
                owner,
                webhookID,
                limit
            ).compactMap { row in
                guard let webhookId = row.string("webhookID"), let firingId = row.string("firingID") else { return nil }
                return Delivery(
                    webhookId: webhookId,
                    firingId: firingId,
                    status: row.int("status"),
                    attempt: row.int("attempt") ?? 0,
                    ok: row.bool("ok") ?? false,
                    error: row.string("error"),
                    at: row.int64("at") ?? 0
                )
            }
        }
    }

    static func webhook(_ row: SQLRow) -> Webhook? {
        guard let id = row.string("id"), let owner = row.string("owner"), let url = row.string("url"), let secret = row.string("secret"),
            let createdAt = row.int64("createdAt")
        else { return nil }
        return Webhook(
            id: id,
            owner: owner,
            url: url,
            secret: secret,
            createdAt: createdAt,
            failures: row.int("failures") ?? 0,
            disabled: row.bool("disabled") ?? false,
            kind: row.string("kind").flatMap(Webhook.Kind.init(rawValue:)) ?? .generic,
            p256dh: row.string("p256dh"),
            auth: row.string("auth"),
            language: row.string("lang") ?? "ko"
        )
    }
}
