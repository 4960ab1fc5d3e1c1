import Foundation
import SiseCore
import SiseFeeds
import SiseStore
import SiseTestSupport
import Testing

@testable import SiseEngine

@Suite struct WebhookDispatcherTests {
    let rule = AlertRule(id: "a", owner: "o", market: MarketID("KRW-BTC")!, kind: .above, value: 1)

    @Test func failedDeliveriesAreRetriedLoggedAndTheWebhookDisabled() async throws {
        let store = AlertStore(database: try AppDatabase.inMemory())
        // A loopback port nobody listens on: every attempt fails fast.
        let hook = AlertStore.Webhook(id: "w", owner: "o", url: "http://127.0.0.1:9/hook", secret: "secret-secret", createdAt: 0)
        try await store.addWebhook(hook)
        let dispatcher = WebhookDispatcher(store: store, poster: WebhookPoster(allowPrivate: true, timeout: .milliseconds(300)),
                                           retryDelays: [.milliseconds(10), .milliseconds(10)], pollInterval: .milliseconds(20))
        let running = ServiceTask(dispatcher)
        defer { Task { await running.stop() } }
        dispatcher.enqueue(AlertFiring(id: "f1", rule: rule, price: 2, observed: nil, at: 1))
        try await eventually { try await store.deliveries(owner: "o", webhookID: "w").count == 3 }
        var log = try await store.deliveries(owner: "o", webhookID: "w")
        #expect(log.map(\.attempt) == [3, 2, 1], "an attempt and two retries, newest first")
        #expect(log.allSatisfy { !$0.ok && $0.error != nil })
        #expect(try await store.webhooks(owner: "o").first?.disabled == false)
        try await eventually { try await store.queuedJobs() == 0 }
        dispatcher.enqueue(AlertFiring(id: "f2", rule: rule, price: 2, observed: nil, at: 2))
        try await eventually { try await store.webhooks(owner: "o").first?.disabled == true }
        log = try await store.deliveries(owner: "o", webhookID: "w")
        #expect(log.count == AlertStore.failuresBeforeDisabling, "no attempt after the webhook was disabled")
        #expect(try await store.queuedJobs() == 0, "a disabled webhook's queue is emptied")
        #expect(try await store.deliveries(owner: "someone-else", webhookID: "w").isEmpty)
    }

    /// The queue is a table: a delivery queued by a replica that died (its lease running) is
    /// made by another once the lease ends — on SQLite across a restart, on PostgreSQL by a
    /// second replica — and a leased job is not posted twice meanwhile.
    @Test func aQueuedDeliveryOutlivesItsReplica() async throws {
        let hits = HitCounter()
        let receiver = try await LoopbackReceiver.start { hits.add() }
        defer { Task { await receiver.stop() } }
        var engines: [(String, AppDatabase, AppDatabase)] = []
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-queue-\(UUID().uuidString)")
        engines.append(("sqlite", try AppDatabase.open(directory: directory), try AppDatabase.open(directory: directory)))
        if let (url, first) = try await TestStores.freshPostgres() {
            engines.append(("postgres", first, try await AppDatabase.open(DatabaseLocation(parsing: url))))
        }
        for (name, first, second) in engines {
            hits.reset()
            let dead = AlertStore(database: first)
            try await dead.addWebhook(AlertStore.Webhook(id: "w", owner: "o", url: receiver.url, secret: "secret-secret", createdAt: 0))
            try await dead.enqueue(firingId: "f", owner: "o", body: "{}", at: WebhookDispatcher.now())
            // The first replica claims the job and dies before posting it.
            #expect(try await dead.claimJobs(at: WebhookDispatcher.now(), leaseFor: 400, limit: 8).count == 1, "\(name)")
            let alive = AlertStore(database: second)
            #expect(try await alive.claimJobs(at: WebhookDispatcher.now(), leaseFor: 400, limit: 8).isEmpty, "\(name): leased, not taken twice")
            let dispatcher = WebhookDispatcher(store: alive, poster: WebhookPoster(allowPrivate: true, timeout: .seconds(2)),
                                               pollInterval: .milliseconds(50))
            let running = ServiceTask(dispatcher)
            try await eventually { hits.count == 1 }
            try await eventually { try await alive.queuedJobs() == 0 }
            try await Task.sleep(for: .milliseconds(300))
            #expect(hits.count == 1, "\(name): delivered once")
            #expect(try await alive.deliveries(owner: "o", webhookID: "w").first?.ok == true, "\(name)")
            await running.stop()
        }
    }
}
