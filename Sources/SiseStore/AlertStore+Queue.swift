import Foundation
import SiseCore

/// The delivery queue: a table, so a delivery outlives the replica that queued it; jobs are
/// leased, so a replica that dies hands its jobs on.
extension AlertStore {
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
                    WHERE j.dueAt <= ? AND j.lease <= ? AND j.held = FALSE AND w.disabled = FALSE
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

    /// The job is held back (quiet hours, the daily cap) until `until`, when it goes out in a digest.
    public func holdJob(_ id: String, until: Int64) async throws {
        try await database.write { db in
            try await db.execute("UPDATE webhook_job SET held = TRUE, dueAt = ?, lease = 0 WHERE id = ?", until, id)
        }
    }

    /// Held jobs whose time has come, one destination at a time, become one digest job each:
    /// `{"type":"digest","count":N,"firings":[…]}` (the newest `digestFirings` of them, oldest
    /// first). The held rows are taken by one delete, so on several replicas each goes into one
    /// digest. Returns how many digests were queued.
    @discardableResult
    public func releaseDigests(at now: Int64) async throws -> Int {
        let hooks = try await database.read { db in
            try await db.strings("SELECT DISTINCT webhookID FROM webhook_job WHERE held = TRUE AND dueAt <= ?", now)
        }
        var queued = 0
        for hook in hooks {
            let made = try await database.write { db -> Bool in
                let rows = try await db.query(
                    "DELETE FROM webhook_job WHERE webhookID = ? AND held = TRUE AND dueAt <= ? RETURNING body",
                    hook,
                    now
                )
                let held = rows.compactMap { $0.string("body") }.sorted { Self.firingTime($0) < Self.firingTime($1) }
                guard !held.isEmpty else { return false }
                let firings = held.suffix(Self.digestFirings)
                let body = #"{"type":"digest","count":\#(held.count),"firings":[\#(firings.joined(separator: ","))]}"#
                let id = "digest:" + UUID().uuidString.lowercased()
                try await db.execute(
                    "INSERT INTO webhook_job (id, webhookID, firingID, body, attempt, dueAt, lease, held) VALUES (?, ?, ?, ?, 1, ?, 0, FALSE)",
                    id + ":" + hook,
                    hook,
                    id,
                    body,
                    now
                )
                return true
            }
            if made { queued += 1 }
        }
        return queued
    }

    /// The most firings a digest lists (its `count` says how many were held).
    public static let digestFirings = 20

    /// A queued firing body's `at` (0 when it has none): digests list firings in time order.
    static func firingTime(_ body: String) -> Int64 {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any])?["at"] as? Int64 ?? 0
    }

    /// Held-back firings waiting for a destination's digest.
    public func heldJobs(webhookID: String) async throws -> Int {
        try await database.read { db in try await db.count("SELECT COUNT(*) FROM webhook_job WHERE webhookID = ? AND held = TRUE", webhookID) }
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
            language: row.string("lang") ?? "ko",
            window: DeliveryWindow(
                quietStart: row.int("quietStart"),
                quietEnd: row.int("quietEnd"),
                timeZone: row.string("timeZone") ?? DeliveryWindow.korea,
                dailyCap: row.int("dailyCap")
            ),
            capDay: row.int64("capDay") ?? 0,
            toldToday: row.int("capCount") ?? 0
        )
    }
}
