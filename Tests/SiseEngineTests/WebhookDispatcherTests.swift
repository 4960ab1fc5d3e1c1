import Foundation
import SiseCore
import SiseFeeds
import SiseStore
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseEngine

@Suite struct WebhookDispatcherTests {
    let rule = AlertRule(id: "a", owner: "o", exchange: .upbit, market: MarketID("KRW-BTC")!, kind: .above, value: 1)

    @Test func failedDeliveriesAreRetriedLoggedAndTheWebhookDisabled() async throws {
        let store = AlertStore(database: try AppDatabase.inMemory())
        // A loopback port nobody listens on: every attempt fails fast.
        let hook = AlertStore.Webhook(id: "w", owner: "o", url: "http://127.0.0.1:9/hook", secret: "secret-secret", createdAt: 0)
        try await store.addWebhook(hook)
        let dispatcher = WebhookDispatcher(
            store: store,
            poster: WebhookPoster(allowPrivate: true, timeout: .milliseconds(300)),
            retryDelays: [.milliseconds(10), .milliseconds(10)],
            pollInterval: .milliseconds(20)
        )
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
            let clock = ManualClock(epoch: WallClock.system.now)
            let dead = AlertStore(database: first)
            try await dead.addWebhook(AlertStore.Webhook(id: "w", owner: "o", url: receiver.url, secret: "secret-secret", createdAt: 0))
            try await dead.enqueue(firingId: "f", owner: "o", body: "{}", at: clock.wall.now)
            // The first replica claims the job and dies before posting it.
            #expect(try await dead.claimJobs(at: clock.wall.now, leaseFor: 400, limit: 8).count == 1, "\(name)")
            let alive = AlertStore(database: second)
            #expect(try await alive.claimJobs(at: clock.wall.now, leaseFor: 400, limit: 8).isEmpty, "\(name): leased, not taken twice")
            let dispatcher = WebhookDispatcher(
                store: alive,
                poster: WebhookPoster(allowPrivate: true, timeout: .seconds(2)),
                pollInterval: .milliseconds(100),
                clock: clock.wall,
                ticks: clock
            )
            let running = ServiceTask(dispatcher)
            // Its polls within the lease find nothing to take.
            for _ in 0..<3 { try await Self.poll(clock) }
            #expect(hits.count == 0, "\(name): not posted while another replica's lease runs")
            try await Self.poll(clock)
            try await eventually { hits.count == 1 }
            try await eventually { try await alive.queuedJobs() == 0 }
            // Two of its own leases later, polled all along: still the one delivery.
            for _ in 0..<12 { try await Self.poll(clock, by: .seconds(10)) }
            #expect(hits.count == 1, "\(name): delivered once")
            #expect(try await alive.deliveries(owner: "o", webhookID: "w").first?.ok == true, "\(name)")
            await running.stop()
        }
    }

    /// Quiet hours (23:00–07:00 KST) hold every firing back and send them as one digest at 07:00;
    /// a daily cap of one tells the first firing and holds the second for the next day's digest.
    @Test func quietHoursAndADailyCapHoldFiringsForOneDigest() async throws {
        let bodies = Bodies()
        let receiver = try await LoopbackReceiver.start(bodies: { bodies.add($0) })
        defer { Task { await receiver.stop() } }
        let store = AlertStore(database: try AppDatabase.inMemory())
        let night = DeliveryWindow(quietStart: 23 * 60, quietEnd: 7 * 60)
        try await store.addWebhook(
            AlertStore.Webhook(id: "q", owner: "o", url: receiver.url, secret: "secret-secret", createdAt: 0, window: night)
        )
        try await store.addWebhook(
            AlertStore.Webhook(id: "c", owner: "p", url: receiver.url, secret: "secret-secret", createdAt: 0, window: DeliveryWindow(dailyCap: 1))
        )
        let clock = ManualClock(epoch: try #require(KSTText.epoch(wallTime: "2026-11-27 23:30:00")))
        let dispatcher = WebhookDispatcher(
            store: store,
            // A loopback receiver: a failed post here is the machine's load, and its retry would
            // wait on the stopped clock — so the deadline is generous, and `told` says why.
            poster: WebhookPoster(allowPrivate: true, timeout: .seconds(30)),
            pollInterval: .milliseconds(100),
            clock: clock.wall,
            ticks: clock
        )
        let running = ServiceTask(dispatcher)
        for n in 1...3 {
            dispatcher.enqueue(AlertFiring(id: "n\(n)", rule: rule, price: Double(n), observed: nil, at: clock.wall.now + Int64(n)))
        }
        try await eventually("the three firings held") { try await store.heldJobs(webhookID: "q") == 3 }
        for _ in 0..<5 { try await Self.poll(clock) }
        #expect(bodies.all.isEmpty, "nothing is told in the quiet hours")
        // 07:00: the three go out as one digest, in time order.
        clock.advance(by: .seconds(7 * 3_600 + 30 * 60))
        try await Self.poll(clock)
        try await Self.told(1, bodies, store, "o", "q")
        let digest = try #require(try JSONSerialization.jsonObject(with: Data(bodies.all[0].utf8)) as? [String: Any])
        #expect(digest["type"] as? String == "digest" && digest["count"] as? Int == 3, "\(digest)")
        #expect((digest["firings"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["n1", "n2", "n3"])
        #expect(try await store.heldJobs(webhookID: "q") == 0)
        // The capped destination: the first firing of its day is told, the second held for tomorrow.
        let other = AlertRule(id: "b", owner: "p", exchange: .upbit, market: MarketID("KRW-ETH")!, kind: .above, value: 1)
        dispatcher.enqueue(AlertFiring(id: "p1", rule: other, price: 1, observed: nil, at: clock.wall.now))
        try await Self.told(2, bodies, store, "p", "c")
        dispatcher.enqueue(AlertFiring(id: "p2", rule: other, price: 2, observed: nil, at: clock.wall.now))
        try await eventually("the second firing held by the cap") { try await store.heldJobs(webhookID: "c") == 1 }
        for _ in 0..<5 { try await Self.poll(clock) }
        #expect(bodies.all.count == 2, "over the cap: held")
        clock.advance(by: .seconds(17 * 3_600))
        try await Self.poll(clock)
        try await Self.told(3, bodies, store, "p", "c")
        #expect(bodies.all[2].contains(#""type":"digest""#) && bodies.all[2].contains(#""id":"p2""#), "\(bodies.all[2])")
        await running.stop()
    }

    /// Waits until the receiver has `count` bodies; a failed attempt of the destination meanwhile
    /// fails at once with the poster's error (its retry would wait on the test's stopped clock).
    static func told(_ count: Int, _ bodies: Bodies, _ store: AlertStore, _ owner: String, _ webhook: String) async throws {
        var failure: String?
        try await eventually("\(count) bodies received") {
            failure = try await store.deliveries(owner: owner, webhookID: webhook).first { !$0.ok }.map { $0.error ?? "status \($0.status ?? 0)" }
            return bodies.all.count >= count || failure != nil
        }
        #expect(failure == nil, "a delivery failed: \(failure ?? "")")
        try #require(failure == nil)
    }

    /// Moves the dispatcher's clock one poll on and returns once it has looked and waits again.
    static func poll(_ clock: ManualClock, by step: Duration = .milliseconds(100)) async throws {
        try await expectEventually(timeout: .seconds(5), "the dispatcher waits on the clock") { clock.sleepers > 0 }
        let before = clock.sleeps
        clock.advance(by: step)
        try await expectEventually(timeout: .seconds(5), "the dispatcher polled") { clock.sleeps > before && clock.sleepers > 0 }
    }

    /// The queue hands out turns, not arrival order: one owner's 300 due jobs and another's one,
    /// due later — the other's comes in the first claim, and an owner at its cap gets nothing more
    /// (SQLite and PostgreSQL alike).
    @Test func ownersTakeTurnsAndAnOwnerAtItsCapWaits() async throws {
        var engines: [(String, AppDatabase)] = [("sqlite", try AppDatabase.inMemory())]
        if let (_, postgres) = try await TestStores.freshPostgres() { engines.append(("postgres", postgres)) }
        for (name, database) in engines {
            let store = AlertStore(database: database, maxWebhooks: 20)
            for index in 0..<15 {
                try await store.addWebhook(
                    AlertStore.Webhook(id: "flood\(index)", owner: "flooder", url: "https://example.com/\(index)", secret: "s", createdAt: 0)
                )
            }
            try await store.addWebhook(AlertStore.Webhook(id: "quiet", owner: "other", url: "https://example.com/q", secret: "s", createdAt: 0))
            for firing in 0..<20 { try await store.enqueue(firingId: "f\(firing)", owner: "flooder", body: "{}", at: 1_000 + Int64(firing)) }
            try await store.enqueue(firingId: "late", owner: "other", body: "{}", at: 2_000)
            let first = try await store.claimJobs(at: 3_000, leaseFor: 60_000, limit: 16, perOwner: 4)
            #expect(first.filter { $0.webhook.owner == "other" }.count == 1, "\(name): the other owner's job in the first claim")
            #expect(first.filter { $0.webhook.owner == "flooder" }.count == 4, "\(name): the flooder holds its four slots")
            let more = try await store.claimJobs(at: 3_000, leaseFor: 60_000, limit: 12, perOwner: 4, busy: ["flooder": 4])
            #expect(more.isEmpty, "\(name): an owner at its cap gets nothing more")
            let after = try await store.claimJobs(at: 3_000, leaseFor: 60_000, limit: 12, perOwner: 4, busy: ["flooder": 1])
            #expect(after.count == 3 && Set(after.map(\.id)).isDisjoint(with: first.map(\.id)), "\(name): leased jobs are not handed out twice")
        }
    }
}

/// Bodies received, from any task.
final class Bodies: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ body: String) { list.withLock { $0.append(body) } }
    var all: [String] { list.withLock { $0 } }
}
