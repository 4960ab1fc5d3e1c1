import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import SiseStore

/// Delivers each firing to its owner's enabled webhooks through a queue kept in the database
/// (`webhook_job`), so a delivery survives a restart and, with PostgreSQL, is made by whichever
/// replica is up: a signed POST, retried with backoff (`retryDelays`), every attempt in the
/// delivery log; a webhook that fails `AlertStore.failuresBeforeDisabling` deliveries in a row
/// is disabled. Due jobs are leased (`lease`), so two replicas never post the same attempt and a
/// replica that dies mid-delivery hands its jobs on when the lease ends.
public final class WebhookDispatcher: Service, Sendable {
    enum Event: Sendable {
        case firing(AlertFiring)
        case tick
    }

    private let store: AlertStore
    private let poster: WebhookPoster
    private let retryDelays: [Duration]
    private let pollInterval: Duration
    private let lease: Duration
    private let logger: Logger
    private let events: AsyncStream<Event>
    private let input: AsyncStream<Event>.Continuation
    public static let maxQueued = 1_000
    /// Deliveries in flight at once.
    static let parallel = 8

    public init(store: AlertStore, poster: WebhookPoster, retryDelays: [Duration] = [.seconds(1), .seconds(5), .seconds(30)],
                pollInterval: Duration = .seconds(1), lease: Duration = .seconds(60), logger: Logger = Logger(label: "sise.webhooks")) {
        self.store = store
        self.poster = poster
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
            // Retries fall due and other replicas' orphaned jobs come free with time: look again every `pollInterval`.
            let (input, pollInterval) = (input, pollInterval)
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: pollInterval)
                    input.yield(.tick)
                }
            }
            for await event in events.cancelOnGracefulShutdown() {
                if case .firing(let firing) = event {
                    do {
                        let body = String(decoding: (try? JSONEncoder.webhook.encode(firing)) ?? Data(), as: UTF8.self)
                        try await store.enqueue(firingId: firing.id, owner: firing.owner, body: body, at: Self.now())
                    } catch {
                        logger.error("a webhook delivery could not be queued", metadata: ["error": "\(error)"])
                    }
                }
                await deliverDue()
            }
            group.cancelAll()
        }
    }

    /// Claims the jobs due now and makes one attempt of each, `parallel` at a time.
    func deliverDue() async {
        while !Task.isCancelled {
            guard let jobs = try? await store.claimJobs(at: Self.now(), leaseFor: Self.milliseconds(lease), limit: Self.parallel),
                  !jobs.isEmpty else { return }
            await withDiscardingTaskGroup { group in
                for job in jobs { group.addTask { await self.attempt(job) } }
            }
        }
    }

    /// One attempt of one job: logged; done when it succeeds, when the webhook is disabled or
    /// when the retries are spent; otherwise due again after its delay.
    func attempt(_ job: AlertStore.Job) async {
        var delivery = AlertStore.Delivery(webhookId: job.webhook.id, firingId: job.firingId, status: nil, attempt: job.attempt, ok: false,
                                           error: nil, at: Self.now())
        do throws(WebhookPoster.Failure) {
            delivery.status = try await poster.post(Data(job.body.utf8), to: job.webhook.url, secret: job.webhook.secret,
                                                    headers: [("X-Sise-Delivery", job.firingId)])
            delivery.ok = true
        } catch {
            if case .status(let code) = error { delivery.status = code }
            delivery.error = error.message
        }
        let hook = try? await store.record(delivery)
        if !delivery.ok {
            logger.info("webhook delivery failed", metadata: ["webhook": "\(job.webhook.id)", "attempt": "\(job.attempt)",
                                                              "error": "\(delivery.error ?? "")"])
        }
        if delivery.ok || hook?.disabled == true || job.attempt > retryDelays.count {
            try? await store.finishJob(job.id)
        } else {
            try? await store.retryJob(job.id, attempt: job.attempt + 1, dueAt: Self.now() + Self.milliseconds(retryDelays[job.attempt - 1]))
        }
    }

    static func now() -> Int64 { WallClock.system.now }

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
