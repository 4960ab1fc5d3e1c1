import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import SiseStore
import Synchronization

/// Delivers each firing to its owner's enabled destinations through a queue kept in the database
/// (`webhook_job`), so a delivery survives a restart and, with PostgreSQL, is made by whichever
/// replica is up: a signed POST to a webhook, the documented message to a chat (Telegram,
/// Discord, Slack) in the destination's language, an encrypted and VAPID-signed Web Push message
/// to a browser's push service — retried with backoff (`retryDelays`) while the other side is
/// busy or down, every attempt in the delivery log. A webhook that fails
/// `AlertStore.failuresBeforeDisabling` deliveries in a row is disabled; a push subscription
/// its service calls gone (404, 410) is removed. Due jobs are leased (`lease`), so two replicas never post the same attempt and a
/// replica that dies mid-delivery hands its jobs on when the lease ends. A destination's quiet
/// hours and daily cap (`DeliveryWindow`) hold firings back; they go out as one digest when the
/// quiet hours end or the capped day is over.
public final class WebhookDispatcher: Service, Sendable {
    enum Event: Sendable {
        case firing(AlertFiring)
    }

    private let store: AlertStore
    private let poster: WebhookPoster
    /// The server's Web Push identity (nil: push subscriptions are not delivered).
    private let vapid: WebPushVAPID?
    private let chats: ChatServices
    private let retryDelays: [Duration]
    private let pollInterval: Duration
    private let lease: Duration
    private let logger: Logger
    /// Rung when deliveries may be due: a firing queued, a delivery ended.
    private let due = Wakeup()
    /// Deliveries in flight now, by owner.
    private let inFlight = Mutex<[String: Int]>([:])
    private let events: AsyncStream<Event>
    private let input: AsyncStream<Event>.Continuation
    public static let maxQueued = 1_000
    /// Deliveries in flight at once.
    static let parallel = 16
    /// Deliveries of one owner in flight at once: an owner whose destinations are slow, or who
    /// fires a hundred rules at once, holds at most these slots; the others stay for everyone else.
    static let perOwner = 4

    /// The wall clock jobs are queued, leased and retried by (the composition root's).
    private let clock: WallClock
    /// What the queue's polls wait on.
    private let ticks: any MonotonicClock

    public init(
        store: AlertStore,
        poster: WebhookPoster,
        retryDelays: [Duration] = [.seconds(1), .seconds(5), .seconds(30)],
        pollInterval: Duration = .seconds(1),
        lease: Duration = .seconds(60),
        vapid: WebPushVAPID? = nil,
        chats: ChatServices = ChatServices(),
        clock: WallClock = .system,
        ticks: any MonotonicClock = .system,
        logger: Logger = Logger(label: "sise.webhooks")
    ) {
        self.clock = clock
        self.ticks = ticks
        self.store = store
        self.poster = poster
        self.vapid = vapid
        self.chats = chats
        self.retryDelays = retryDelays
        self.pollInterval = pollInterval
        self.lease = lease
        self.logger = logger
        (events, input) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(Self.maxQueued))
    }

    /// Queues the firing for its owner's webhooks (written to the queue by the run loop).
    public func enqueue(_ firing: AlertFiring) {
        input.yield(.firing(firing))
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.deliverLoop() }
            for await event in events.cancelOnGracefulShutdown() {
                if case .firing(let firing) = event {
                    do {
                        let body = String(decoding: (try? JSONEncoder.webhook.encode(firing)) ?? Data(), as: UTF8.self)
                        try await store.enqueue(firingId: firing.id, owner: firing.owner, body: body, at: clock.now)
                    } catch {
                        logger.error("a webhook delivery could not be queued", metadata: ["error": "\(error)"])
                    }
                }
                due.signal()
            }
            group.cancelAll()
        }
    }

    /// Keeps up to `parallel` deliveries in flight, at most `perOwner` of one owner's, taking due
    /// jobs as slots free with owners in turn: a destination that answers slowly holds its own
    /// slot until its deadline, and a flood of one owner's firings only its owner's slots — never
    /// another owner's delivery. Looks again when a firing is queued, a delivery ends, or every
    /// `pollInterval` (retries fall due, other replicas' orphaned jobs come free).
    func deliverLoop() async {
        await withDiscardingTaskGroup { group in
            var released: Int64 = 0
            while !Task.isCancelled {
                // Held-back firings whose quiet hours (or capped day) ended become digests.
                let now = clock.now
                if now - released >= 1_000 {
                    released = now
                    do { try await store.releaseDigests(at: now) } catch {
                        logger.error("held-back firings could not be gathered", metadata: ["error": "\(error)"])
                    }
                }
                let busy = inFlight.withLock { $0 }
                let free = Self.parallel - busy.values.reduce(0, +)
                if free > 0,
                    let jobs = try? await store.claimJobs(
                        at: clock.now,
                        leaseFor: Self.milliseconds(lease),
                        limit: free,
                        perOwner: Self.perOwner,
                        busy: busy
                    ),
                    !jobs.isEmpty
                {
                    inFlight.withLock { counts in
                        for job in jobs { counts[job.webhook.owner, default: 0] += 1 }
                    }
                    for job in jobs {
                        group.addTask {
                            await self.attempt(job)
                            self.inFlight.withLock { counts in
                                let left = (counts[job.webhook.owner] ?? 1) - 1
                                counts[job.webhook.owner] = left > 0 ? left : nil
                            }
                            self.due.signal()
                        }
                    }
                    continue
                }
                try? await due.wait(upTo: pollInterval, on: ticks)
            }
            group.cancelAll()
        }
    }

    /// One attempt of one job: logged; done when it succeeds, when the webhook is disabled or
    /// removed, when the other side refused for good, or when the retries are spent; otherwise due
    /// again after its delay.
    func attempt(_ job: AlertStore.Job) async {
        let hook = job.webhook
        let digest = job.firingId.hasPrefix("digest:")
        let now = clock.now
        // Quiet hours, or the day's cap reached: held back for the digest at their end.
        if !digest, !hook.window.isOpen {
            let quiet = hook.window.isQuiet(now)
            let capped = !quiet && hook.window.dailyCap.map { hook.capDay == hook.window.dayStart(now) && hook.toldToday >= $0 } == true
            if quiet || capped {
                do {
                    try await store.holdJob(job.id, until: hook.window.release(after: now, capped: capped))
                    return
                } catch {
                    logger.error("a delivery could not be held back", metadata: ["error": "\(error)"])
                }
            }
        }
        var delivery = AlertStore.Delivery(
            webhookId: job.webhook.id,
            firingId: job.firingId,
            status: nil,
            attempt: job.attempt,
            ok: false,
            error: nil,
            at: clock.now
        )
        var final = false
        do throws(WebhookPoster.Failure) {
            delivery.status = try await send(job)
            delivery.ok = true
            if !digest { delivery.countedDay = hook.window.dayStart(now) }
        } catch {
            if case .status(let code) = error {
                delivery.status = code
                // Only a busy or failing service is worth asking again; a refusal stands.
                final = job.webhook.kind != .generic && code != 429 && code < 500
                if job.webhook.kind == .push, code == 404 || code == 410 {
                    logger.info("a push subscription is gone; removed", metadata: ["subscription": "\(job.webhook.id)", "status": "\(code)"])
                    try? await store.removeTarget(job.webhook.id)
                    return
                }
            }
            if case .badURL = error { final = true }
            delivery.error = error.message
        }
        let recorded = try? await store.record(delivery)
        if !delivery.ok {
            logger.info(
                "webhook delivery failed",
                metadata: [
                    "webhook": "\(job.webhook.id)", "kind": "\(job.webhook.kind.rawValue)",
                    "attempt": "\(job.attempt)", "error": "\(delivery.error ?? "")",
                ]
            )
        }
        if delivery.ok || final || recorded?.disabled == true || job.attempt > retryDelays.count {
            try? await store.finishJob(job.id)
        } else {
            try? await store.retryJob(job.id, attempt: job.attempt + 1, dueAt: clock.now + Self.milliseconds(retryDelays[job.attempt - 1]))
        }
    }

    /// The one request of this job's destination; its 2xx status.
    private func send(_ job: AlertStore.Job) async throws(WebhookPoster.Failure) -> Int {
        let hook = job.webhook
        let json = [("Content-Type", "application/json")]
        // A firing, or a digest of the firings held back: in words for chats and browsers.
        func message() throws(WebhookPoster.Failure) -> (line: String, pushJSON: String) {
            if job.firingId.hasPrefix("digest:") {
                guard let digest = DigestMessage(digestJSON: job.body, language: hook.language) else { throw .badURL }
                return (digest.line, digest.pushJSON)
            }
            guard let message = FiringMessage(firingJSON: job.body, language: hook.language) else { throw .badURL }
            return (message.line, message.pushJSON)
        }
        switch hook.kind {
        case .generic:
            return try await poster.post(Data(job.body.utf8), to: hook.url, secret: hook.secret, headers: [("X-Sise-Delivery", job.firingId)])
        case .telegram:
            return try await poster.send(
                ChatServices.body(telegramChat: hook.url, text: try message().line),
                to: chats.telegramURL(token: hook.secret),
                headers: json
            )
        case .discord:
            return try await poster.send(ChatServices.body(discord: try message().line), to: hook.url, headers: json)
        case .slack:
            return try await poster.send(ChatServices.body(slack: try message().line), to: hook.url, headers: json)
        case .push:
            let text = try message().pushJSON
            guard let vapid, let endpoint = URL(string: hook.url), let authorization = vapid.authorization(for: endpoint),
                let p256dh = hook.p256dh.flatMap(Base64URL.decode), let auth = hook.auth.flatMap(Base64URL.decode),
                let sealed = try? WebPushEncryption.encrypt(Data(text.utf8), p256dh: p256dh, auth: auth)
            else { throw .badURL }
            return try await poster.send(
                sealed,
                to: hook.url,
                headers: [
                    ("Content-Type", "application/octet-stream"), ("Content-Encoding", "aes128gcm"), ("TTL", "86400"), ("Urgency", "high"),
                    ("Authorization", authorization),
                ]
            )
        }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}

extension JSONEncoder {
    /// The webhook body: the firing's keys, sorted, slashes unescaped.
    static let webhook: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
