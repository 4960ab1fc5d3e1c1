import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import SiseStore

/// Delivers each firing to its owner's enabled webhooks: a signed POST, retried with backoff
/// (`retryDelays`), every attempt in the delivery log; a webhook that fails
/// `AlertStore.failuresBeforeDisabling` deliveries in a row is disabled. Firings queue in a
/// bounded buffer (the oldest dropped beyond `maxQueued`), so a dead target never holds the
/// engine up.
public final class WebhookDispatcher: Service, Sendable {
    private let store: AlertStore
    private let poster: WebhookPoster
    private let retryDelays: [Duration]
    private let logger: Logger
    private let queue: AsyncStream<AlertFiring>
    private let input: AsyncStream<AlertFiring>.Continuation
    public static let maxQueued = 1_000
    /// Deliveries in flight at once.
    static let parallel = 8

    public init(store: AlertStore, poster: WebhookPoster, retryDelays: [Duration] = [.seconds(1), .seconds(5), .seconds(30)],
                logger: Logger = Logger(label: "sise.webhooks")) {
        self.store = store
        self.poster = poster
        self.retryDelays = retryDelays
        self.logger = logger
        (queue, input) = AsyncStream.makeStream(of: AlertFiring.self, bufferingPolicy: .bufferingNewest(Self.maxQueued))
    }

    public func enqueue(_ firing: AlertFiring) {
        input.yield(firing)
    }

    public func run() async throws {
        await withTaskGroup(of: Void.self) { deliveries in
            var running = 0
            for await firing in queue.cancelOnGracefulShutdown() {
                let hooks = (try? await store.webhooks(owner: firing.owner).filter { !$0.disabled }) ?? []
                for hook in hooks {
                    // At most `parallel` deliveries at once: wait for one to end before the next.
                    while running >= Self.parallel, await deliveries.next() != nil { running -= 1 }
                    running += 1
                    deliveries.addTask { await self.deliver(firing, to: hook) }
                }
            }
            deliveries.cancelAll()
        }
    }

    /// One firing to one webhook: attempts until one succeeds or the delays run out.
    func deliver(_ firing: AlertFiring, to hook: AlertStore.Webhook) async {
        let body = (try? JSONEncoder.webhook.encode(firing)) ?? Data()
        for attempt in 1...(retryDelays.count + 1) {
            var delivery = AlertStore.Delivery(webhookId: hook.id, firingId: firing.id, status: nil, attempt: attempt, ok: false, error: nil,
                                               at: Int64(Date().timeIntervalSince1970 * 1_000))
            do throws(WebhookPoster.Failure) {
                delivery.status = try await poster.post(body, to: hook.url, secret: hook.secret, headers: [("X-Sise-Delivery", firing.id)])
                delivery.ok = true
            } catch {
                if case .status(let code) = error { delivery.status = code }
                delivery.error = error.message
            }
            let now = try? await store.record(delivery)
            if delivery.ok { return }
            logger.info("webhook delivery failed", metadata: ["webhook": "\(hook.id)", "attempt": "\(attempt)", "error": "\(delivery.error ?? "")"])
            if now?.disabled == true || attempt > retryDelays.count || Task.isCancelled { return }
            try? await Task.sleep(for: retryDelays[attempt - 1])
        }
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
