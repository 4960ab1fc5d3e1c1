import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseStore
import SiseTestSupport
import Synchronization
import Testing

/// The CoinGecko cache against the simulator's CoinGecko: one call for many viewers, stale
/// copies on 429, the budget under a burst, and persistence.
@Suite(.serialized) struct CoinInfoServiceTests {
    final class Clock: Sendable {
        let ms = Atomic<Int64>(1_795_000_000_000)
        func advance(seconds: Int64) { ms.add(seconds * 1_000, ordering: .relaxed) }
        var now: Int64 { ms.load(ordering: .relaxed) }
    }

    final class Outcomes: Sendable {
        private let state = Mutex<(ok: Int, limited: Int)>((0, 0))
        func count(ok: Bool) { state.withLock { if ok { $0.ok += 1 } else { $0.limited += 1 } } }
        var value: (ok: Int, limited: Int) { state.withLock { $0 } }
    }

    func service(
        _ simulator: RunningSimulator,
        cache: any CacheStore = InMemoryCache(),
        perMinute: Int = 10,
        clock: Clock
    ) -> (CoinInfoService, Running) {
        let transport = LiveHTTPTransport()
        let api = CoinGeckoClient(configuration: .init(baseURL: simulator.baseURL.appendingPathComponent("api/v3")), transport: transport)
        let service = CoinInfoService(api: api, cache: cache, callsPerMinute: perMinute, now: { clock.now })
        return (service, Running(task: ServiceTask(service), transport: transport))
    }

    /// The service's run loop and its connections, stopped together.
    struct Running {
        let task: ServiceTask
        let transport: LiveHTTPTransport
        func shutdown() async {
            await task.stop()
            await transport.shutdown()
        }
    }

    @Test func aHundredConcurrentViewersCostOneTrendingCall() async throws {
        try await withSimulator { simulator in
            let clock = Clock()
            let (service, transport) = service(simulator, clock: clock)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 { group.addTask { try await service.trending().value.coins.count } }
                for try await count in group { #expect(count == 15) }
            }
            let stats = try await SimAdmin.stats(simulator)
            #expect(stats["coingecko"]?["/search/trending"] == 1)
            #expect(stats["coingecko"]?["/exchange_rates"] == 1)
            // Fresh for ten minutes: more viewers, no more calls.
            clock.advance(seconds: 300)
            _ = try await service.trending()
            #expect(try await SimAdmin.stats(simulator)["coingecko"]?["/search/trending"] == 1)
            await transport.shutdown()
        }
    }

    @Test func a429ServesTheStaleCopyWithWhenFreshDataComes() async throws {
        try await withSimulator { simulator in
            let clock = Clock()
            let (service, transport) = service(simulator, clock: clock)
            let fresh = try await service.search("bit")
            #expect(!fresh.stale && fresh.value.coins.first?.id == "bitcoin")
            try await SimAdmin.setFaults(simulator, #"{"geckoPerMinute":0}"#)
            clock.advance(seconds: 1_000)
            let stale = try await service.search("bit")
            #expect(stale.stale)
            #expect(stale.value == fresh.value, "the last good copy, never a blank page")
            // The background refresh met the 429; the next answer says when fresh data comes.
            try await expectEventually { (try await service.search("bit")).retryAt != nil }
            let nothingCached = await #expect(throws: FeedError.self) { _ = try await service.search("never-asked") }
            _ = nothingCached
            await transport.shutdown()
        }
    }

    @Test func theBudgetHoldsUnderABurstOfSearches() async throws {
        try await withSimulator { simulator in
            let clock = Clock()
            let (service, transport) = service(simulator, perMinute: 10, clock: clock)
            let outcomes = Outcomes()
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<30 {
                    group.addTask {
                        do {
                            _ = try await service.search("query\(i)")
                            outcomes.count(ok: true)
                        } catch {
                            outcomes.count(ok: false)
                        }
                    }
                }
            }
            let total = try await SimAdmin.stats(simulator)["coingecko"]?.values.reduce(0, +) ?? 0
            #expect(total <= 10, "at most 10 upstream calls in the minute")
            // Searches may spend 7 of the 10: 3 stay reserved for what every viewer shares.
            #expect(outcomes.value.ok == 7)
            #expect(outcomes.value.limited == 23)
            let trending = try await service.trending()
            #expect(!trending.value.coins.isEmpty, "the reserved share still serves trending after the burst")
            await transport.shutdown()
        }
    }

    /// Three replicas, one budget: each keeps its own count, and the database's count holds all
    /// of them to the key's calls per minute (PostgreSQL when the test command started one).
    @Test func replicasShareOneBudget() async throws {
        let database = try await TestStores.postgres() ?? TestStores.sqlite()
        try await withSimulator { simulator in
            let clock = Clock()
            let replicas = (0..<3).map { _ in
                let transport = LiveHTTPTransport()
                let api = CoinGeckoClient(configuration: .init(baseURL: simulator.baseURL.appendingPathComponent("api/v3")), transport: transport)
                let service = CoinInfoService(
                    api: api,
                    cache: InMemoryCache(),
                    callsPerMinute: 10,
                    sharedBudget: CallCounter(database: database),
                    now: { clock.now }
                )
                return (service, Running(task: ServiceTask(service), transport: transport))
            }
            await withTaskGroup(of: Void.self) { group in
                for i in 0..<30 {
                    let service = replicas[i % 3].0
                    group.addTask { _ = try? await service.search("shared\(i)") }
                }
            }
            let total = try await SimAdmin.stats(simulator)["coingecko"]?.values.reduce(0, +) ?? 0
            #expect(total <= 10, "three replicas made \(total) calls in one minute")
            #expect(total >= 7, "the budget is used, not lost")
            #expect(await CallCounter(database: database).used("coingecko", at: clock.now) == 10)
            for (_, running) in replicas { await running.shutdown() }
        }
    }

    @Test func theCacheSurvivesARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withSimulator { simulator in
            let clock = Clock()
            let first = service(simulator, cache: DatabaseCache(database: try AppDatabase.open(directory: directory)), clock: clock)
            _ = try await first.0.trending()
            await first.1.shutdown()
            let second = service(simulator, cache: DatabaseCache(database: try AppDatabase.open(directory: directory)), clock: clock)
            let again = try await second.0.trending()
            #expect(!again.stale && again.value.coins.count == 15)
            #expect(try await SimAdmin.stats(simulator)["coingecko"]?["/search/trending"] == 1, "answered from disk")
            await second.1.shutdown()
        }
    }
}

/// The ranking through the same cache: many viewers of the top 250 cost one call; deeper
/// pages are each one call more, counted against the client that asks.
@Suite(.serialized) struct RankingCacheTests {
    @Test func aThousandViewersOfTheRankingCostOneCallPerPage() async throws {
        try await withSimulator { simulator in
            let clock = CoinInfoServiceTests.Clock()
            let (service, running) = CoinInfoServiceTests().service(simulator, clock: clock)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<1_000 { group.addTask { try await service.ranking(currency: .krw, blocks: 1).value.count } }
                for try await count in group { #expect(count == 250) }
            }
            #expect(try await SimAdmin.stats(simulator)["coingecko"]?["/coins/markets"] == 1)
            _ = try await service.global()
            _ = try await service.global()
            #expect(try await SimAdmin.stats(simulator)["coingecko"]?["/global"] == 1)
            // A deeper page is one more call; the first is still fresh.
            let deeper = try await service.ranking(currency: .krw, blocks: 2, client: ["device:a"])
            #expect(deeper.value.count == 250, "the simulator lists 250 coins: the second page is empty")
            #expect(try await SimAdmin.stats(simulator)["coingecko"]?["/coins/markets"] == 2)
            // USD is its own ranking.
            let usd = try await service.ranking(currency: .usd, blocks: 1)
            #expect(usd.value.first?.id == "bitcoin" && (usd.value.first?.price ?? 0) < 1_000_000)
            // After ~90 s the copy is stale: answered at once, refreshed behind.
            clock.advance(seconds: 120)
            let stale = try await service.ranking(currency: .krw, blocks: 1)
            #expect(stale.stale && stale.value.count == 250)
            await running.shutdown()
        }
    }
}
