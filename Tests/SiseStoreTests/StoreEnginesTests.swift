import Foundation
import SiseCore
import SiseStore
import SiseTestSupport
import Testing

/// What must hold the same on SQLite and PostgreSQL beyond favorites, accounts and the
/// portfolio: alert rules and their webhooks, the device → account hand-over, migrations, and
/// writes racing from two replicas.
@Suite struct StoreEnginesTests {
    let btc = MarketID("KRW-BTC")!

    func rule(_ id: String, owner: String, enabled: Bool = true) -> AlertRule {
        AlertRule(
            id: id,
            owner: owner,
            exchange: .upbit,
            market: btc,
            kind: .above,
            value: Decimal(string: "95000000.5")!,
            windowMinutes: nil,
            recurring: true,
            cooldownSeconds: 60,
            enabled: enabled,
            createdAt: 1,
            lastFiredAt: nil
        )
    }

    @Test func alertsFiringsAndWebhooksRoundTrip() async throws {
        for (name, database) in try await TestStores.all() {
            let store = AlertStore(database: database, maxRules: 3, maxWebhooks: 1)
            try await store.add(rule("r1", owner: "a"))
            try await store.add(rule("r2", owner: "a", enabled: false))
            #expect(try await store.rules(owner: "a").map(\.id) == ["r1", "r2"], "\(name)")
            #expect(try await store.rules(owner: "a").first?.value == Decimal(string: "95000000.5"), "\(name): the value exactly")
            #expect(try await store.enabledRules().map(\.id) == ["r1"], "\(name): booleans read back")
            var changed = rule("r2", owner: "a", enabled: true)
            changed.windowMinutes = 15
            #expect(try await store.update(changed), "\(name)")
            #expect(try await store.update(rule("r2", owner: "intruder")) == false, "\(name): only the owner's rule")
            #expect(try await store.rules(owner: "a").last?.windowMinutes == 15, "\(name)")
            try await store.add(rule("r3", owner: "a"))
            await #expect(throws: StoreError.tooManyRecords(limit: 3), "\(name)") { try await store.add(rule("r4", owner: "a")) }

            for n in 0..<3 {
                var fired = rule("r1", owner: "a")
                let firing = AlertFiring(id: "f\(n)", rule: fired, price: 96_000_000, observed: nil, at: Int64(100_000 * (n + 1)))
                fired.enabled = n < 2
                #expect(try await store.record(firing, rule: fired), "\(name)")
            }
            let late = AlertFiring(id: "f9", rule: rule("r1", owner: "a"), price: 1, observed: nil, at: 900_000)
            #expect(try await store.record(late, rule: rule("r1", owner: "a")) == false, "\(name): a disabled rule fires no more")
            #expect(try await store.history(owner: "a").map(\.id) == ["f2", "f1", "f0"], "\(name): newest first")
            #expect(try await store.rules(owner: "a").first?.lastFiredAt == 300_000, "\(name)")
            #expect(try await store.rules(owner: "a").first?.enabled == false, "\(name): a one-shot rule is disabled")

            let hook = AlertStore.Webhook(id: "w1", owner: "a", url: "https://example.com/h", secret: "s", createdAt: 5)
            try await store.addWebhook(hook)
            await #expect(throws: StoreError.tooManyRecords(limit: 1), "\(name)") {
                try await store.addWebhook(AlertStore.Webhook(id: "w2", owner: "a", url: "https://example.com/2", secret: "s", createdAt: 6))
            }
            var last: AlertStore.Webhook?
            for attempt in 1...AlertStore.failuresBeforeDisabling {
                last = try await store.record(
                    AlertStore.Delivery(
                        webhookId: "w1",
                        firingId: "f0",
                        status: 500,
                        attempt: attempt,
                        ok: false,
                        error: "HTTP 500",
                        at: Int64(attempt)
                    )
                )
            }
            #expect(last?.disabled == true, "\(name): disabled after five failures in a row")
            let log = try await store.deliveries(owner: "a", webhookID: "w1")
            #expect(log.map(\.attempt) == [5, 4, 3, 2, 1], "\(name): newest first")
            #expect(try await store.deliveries(owner: "b", webhookID: "w1").isEmpty, "\(name): only the owner's log")
            #expect(try await store.removeWebhook(owner: "a", id: "w1"), "\(name)")
            #expect(try await store.webhooks(owner: "a").isEmpty, "\(name)")
        }
    }

    @Test func aDevicesDataMovesToTheAccountOnce() async throws {
        for (name, database) in try await TestStores.all() {
            let alerts = AlertStore(database: database)
            let portfolio = PortfolioStore(database: database)
            try await alerts.add(rule("r1", owner: "device"))
            try await portfolio.add(
                owner: "device",
                [PortfolioTransaction(id: "t1", kind: .buy, exchange: .upbit, market: btc, quantity: 1, price: 10, at: 1)]
            )
            let moved = try await OwnerData(database: database).move(from: "device", into: "user:x")
            #expect(moved.map(\.id) == ["r1"], "\(name)")
            #expect(try await portfolio.transactions(owner: "user:x").map(\.id) == ["t1"], "\(name)")
            #expect(try await portfolio.transactions(owner: "device").isEmpty, "\(name)")
            #expect(try await OwnerData(database: database).move(from: "device", into: "user:x").map(\.id) == ["r1"], "\(name): nothing more moves")
            #expect(try await portfolio.transactions(owner: "user:x").count == 1, "\(name)")
        }
    }

    /// Logging in from many devices never takes an account past a limit: rules, webhooks and push
    /// subscriptions move only as far as the account has room (the newest first), the rest stay on
    /// the device; the firings of the rules that moved follow them.
    @Test func aDeviceMovesOnlyAsMuchAsTheAccountHasRoomFor() async throws {
        for (name, database) in try await TestStores.all() {
            let alerts = AlertStore(database: database, maxRules: 10, maxWebhooks: 10)
            for index in 1...3 {
                var device = rule("d\(index)", owner: "device")
                device.createdAt = Int64(index)
                try await alerts.add(device)
                try await alerts.addWebhook(
                    AlertStore.Webhook(
                        id: "hook\(index)",
                        owner: "device",
                        url: "https://example.com/\(index)",
                        secret: "s",
                        createdAt: Int64(index)
                    )
                )
                try await alerts.addWebhook(
                    AlertStore.Webhook(
                        id: "push\(index)",
                        owner: "device",
                        url: "https://push.example.net/\(index)",
                        secret: "",
                        createdAt: Int64(index),
                        kind: .push,
                        p256dh: "k",
                        auth: "a"
                    )
                )
            }
            try await alerts.add(rule("mine", owner: "user:y"))
            _ = try await alerts.record(
                AlertFiring(id: "f3", rule: rule("d3", owner: "device"), price: 1, observed: nil, at: 10),
                rule: rule("d3", owner: "device")
            )
            let limits = OwnerData.Limits(rules: 2, webhooks: 2, pushSubscriptions: 1)
            let moved = try await OwnerData(database: database, limits: limits).move(from: "device", into: "user:y")
            #expect(Set(moved.map(\.id)) == ["mine", "d3"], "\(name): one rule of room, the newest took it")
            #expect(Set(try await alerts.rules(owner: "device").map(\.id)) == ["d1", "d2"], "\(name): the rest stay on the device")
            #expect(Set(try await alerts.webhooks(owner: "user:y").map(\.id)) == ["hook3", "hook2"], "\(name)")
            #expect(try await alerts.pushSubscriptions(owner: "user:y").map(\.id) == ["push3"], "\(name)")
            #expect(try await alerts.history(owner: "user:y").map(\.id) == ["f3"], "\(name): the firing followed its rule")
        }
    }

    /// Three replicas see the same tick and fire the same rule: one records it (and delivers),
    /// the others are told it is not theirs; the next crossing after the cool-down fires again.
    @Test func aFiringIsClaimedByExactlyOneReplica() async throws {
        var stores: [(String, [AlertStore])] = []
        let local = AlertStore(database: try TestStores.sqlite())
        stores.append(("sqlite", [local, local, local]))
        if let (url, first) = try await TestStores.freshPostgres() {
            var replicas = [AlertStore(database: first)]
            for _ in 0..<2 { replicas.append(AlertStore(database: try await AppDatabase.open(DatabaseLocation(parsing: url)))) }
            stores.append(("postgres", replicas))
        }
        for (name, replicas) in stores {
            var recurring = rule("r", owner: "a")
            recurring.cooldownSeconds = 30
            try await replicas[0].add(recurring)
            let armed = recurring
            for round in 0..<2 {
                let at = Int64(1_000_000 + round * 31_000)
                let claims = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for (index, replica) in replicas.enumerated() {
                        let firing = AlertFiring(id: "f\(round)-\(index)", rule: armed, price: 1, observed: nil, at: at + Int64(index * 300))
                        group.addTask { try await replica.record(firing, rule: armed) }
                    }
                    return try await group.reduce(into: [Bool]()) { $0.append($1) }
                }
                #expect(claims.filter { $0 }.count == 1, "\(name) round \(round): \(claims)")
            }
            #expect(try await replicas[0].history(owner: "a").count == 2, "\(name): one firing per crossing")
        }
    }

    @Test func everyMigrationIsAppliedByName() async throws {
        for (name, database) in try await TestStores.all() {
            #expect(try await database.appliedMigrations() == AppDatabase.migrationNames, "\(name)")
            try await database.ping()
        }
    }

    /// Two replicas on one PostgreSQL database star at once: the per-owner limit holds (the
    /// check and the insert are one serializable transaction, retried on conflict), no write is
    /// lost, and each sees the other's.
    @Test func racingReplicasKeepTheLimitAndEveryWrite() async throws {
        guard let (url, first) = try await TestStores.freshPostgres() else { return }
        let second = try await AppDatabase.open(DatabaseLocation(parsing: url))
        let replicas = [StoredFavorites(database: first), StoredFavorites(database: second)]
        let added = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<40 {
                group.addTask {
                    do { return try await replicas[n % 2].add(owner: "race", item: "coin-\(n)", limit: 25) } catch StoreError.tooMany { return false }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(added == 25)
        #expect(try await replicas[0].list(owner: "race").count == 25)
        #expect(try await replicas[1].list(owner: "race") == replicas[0].list(owner: "race"))
        await second.close()
    }

    @Test func locationsAreReadOrRefusedClearly() throws {
        #expect(try DatabaseLocation(parsing: "sqlite:/var/lib/sise") == .sqlite(directory: URL(fileURLWithPath: "/var/lib/sise")))
        #expect(try DatabaseLocation(parsing: "sqlite:/var/lib/sise/sise.sqlite") == .sqlite(directory: URL(fileURLWithPath: "/var/lib/sise")))
        guard case .postgres(let target) = try DatabaseLocation(parsing: "postgresql://sise:p%40ss@db.internal:6432/sise?pool=30") else {
            Issue.record("not read as PostgreSQL")
            return
        }
        #expect(target.host == "db.internal" && target.port == 6432 && target.user == "sise" && target.database == "sise")
        #expect(target.password == "p@ss" && target.maxConnections == 30)
        #expect(!target.display.contains("p@ss"), "no password in messages")
        for bad in ["mysql://x@y/z", "postgres://db/sise", "postgres://u@db/", "sqlite:", "postgres://u@db/s?pool=0"] {
            #expect(throws: DatabaseLocation.Problem.self, "\(bad)") { try DatabaseLocation(parsing: bad) }
        }
    }

    @Test func anUnreachableServerIsAClearError() async throws {
        let started = ContinuousClock.now
        await #expect(throws: StoreError.self) {
            _ = try await AppDatabase.open(DatabaseLocation(parsing: "postgres://sise@127.0.0.1:1/sise"), connectTimeout: .seconds(2))
        }
        #expect(ContinuousClock.now - started < .seconds(10), "refused at once, not retried for ever")
    }
}
