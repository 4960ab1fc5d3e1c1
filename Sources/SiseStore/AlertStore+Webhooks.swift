import Foundation
import SiseCore

/// Where firings go: signed webhooks, chats and push subscriptions, and their delivery log.
extension AlertStore {
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
        /// Its quiet hours and daily cap (open: neither).
        public var window: DeliveryWindow
        /// The local day (its midnight, epoch ms) `toldToday` counts, and how many firings went out then.
        public var capDay: Int64
        public var toldToday: Int

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
            language: String = "ko",
            window: DeliveryWindow = DeliveryWindow(),
            capDay: Int64 = 0,
            toldToday: Int = 0
        ) {
            self.window = window
            self.capDay = capDay
            self.toldToday = toldToday
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
        /// The destination's local day (its midnight) a successful firing counts against (nil: not counted).
        public var countedDay: Int64?

        enum CodingKeys: String, CodingKey { case webhookId, firingId, status, attempt, ok, error, at }

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

    /// One of the owner's destinations (a webhook, a chat or a push subscription).
    public func destination(owner: String, id: String) async throws -> Webhook? {
        try await database.read { db in
            try await db.queryOne("SELECT * FROM webhook WHERE owner = ? AND id = ?", owner, id).flatMap(Self.webhook)
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
                INSERT INTO webhook (id, owner, url, secret, createdAt, failures, disabled, kind, p256dh, auth, lang, quietStart, quietEnd,
                    timeZone, dailyCap)
                VALUES (?, ?, ?, ?, ?, 0, FALSE, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                hook.id,
                hook.owner,
                hook.url,
                hook.secret,
                hook.createdAt,
                hook.kind.rawValue,
                hook.p256dh,
                hook.auth,
                hook.language,
                hook.window.quietStart,
                hook.window.quietEnd,
                hook.window.timeZone,
                hook.window.dailyCap
            )
            return hook
        }
    }

    /// Sets the quiet hours and daily cap of the owner's destination (a webhook, a chat or a push
    /// subscription); nil when the owner has no such destination. What it holds back goes out in a
    /// digest now — or, when the new quiet hours cover now, at their end.
    public func setWindow(owner: String, id: String, _ window: DeliveryWindow, at now: Int64) async throws -> Webhook? {
        try await database.write { db in
            let changed = try await db.execute(
                "UPDATE webhook SET quietStart = ?, quietEnd = ?, timeZone = ?, dailyCap = ? WHERE owner = ? AND id = ?",
                window.quietStart,
                window.quietEnd,
                window.timeZone,
                window.dailyCap,
                owner,
                id
            )
            guard changed > 0 else { return nil }
            let release = window.isQuiet(now) ? window.release(after: now, capped: false) : now
            try await db.execute("UPDATE webhook_job SET dueAt = ? WHERE webhookID = ? AND held = TRUE", release, id)
            return try await db.queryOne("SELECT * FROM webhook WHERE id = ?", id).flatMap(Self.webhook)
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
                // A firing told counts against the day's cap (a digest does not).
                if let day = delivery.countedDay {
                    try await db.execute(
                        "UPDATE webhook SET capCount = CASE WHEN capDay = ? THEN capCount + 1 ELSE 1 END, capDay = ? WHERE id = ?",
                        day,
                        day,
                        delivery.webhookId
                    )
                }
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
}
