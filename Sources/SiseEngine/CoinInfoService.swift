import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import SiseStore

/// CoinGecko behind a cache that respects the free tier whatever the number of viewers:
/// per-kind freshness, one upstream call for identical concurrent requests, a global budget
/// of calls per minute, stale-while-revalidate, persistence across restarts, and the stale copy
/// (with a message) when CoinGecko answers 429.
///
/// A `Service`: the upstream calls run as child tasks of `run()`, so a refresh nobody waits for
/// any more (stale-while-revalidate) still ends with the service group, never outlives it.
public actor CoinInfoService: Service {
    /// A value and how fresh it is.
    public struct Cached<Value: Sendable>: Sendable {
        public var value: Value
        /// Epoch ms of the upstream answer.
        public var fetchedAt: Int64
        public var stale: Bool
        /// Why the value is stale and when fresh data can come (localisable by the face).
        public var retryAt: Int64?

        public init(value: Value, fetchedAt: Int64, stale: Bool, retryAt: Int64?) {
            self.value = value
            self.fetchedAt = fetchedAt
            self.stale = stale
            self.retryAt = retryAt
        }
    }

    public struct Freshness: Sendable {
        public var trending: Duration = .seconds(600)
        public var search: Duration = .seconds(900)
        public var markets: Duration = .seconds(60)
        public var chart: Duration = .seconds(300)
        public var rate: Duration = .seconds(600)
        /// CoinGecko refreshes `/coins/markets` every 45 s (more slowly on the free tier).
        public var ranking: Duration = .seconds(90)
        /// CoinGecko refreshes `/global` every 10 minutes.
        public var global: Duration = .seconds(300)
        public init() {}
    }

    private let api: any CoinGeckoAPI
    private let cache: any CacheStore
    private let freshness: Freshness
    private let now: @Sendable () -> Int64
    private var budget: CallBudget
    /// The budget every replica shares (PostgreSQL); nil with one process, where `budget` is all.
    private let sharedBudget: CallCounter?
    private var inFlight: [String: SharedCall<Data>] = [:]
    /// Upstream calls for `run()` to start; before it runs they wait in the buffer.
    private nonisolated let calls: AsyncStream<@Sendable () async -> Void>
    private nonisolated let callSink: AsyncStream<@Sendable () async -> Void>.Continuation
    private var memory: [String: (data: Data, fetchedAt: Int64, used: Int64)] = [:]
    /// The last decoded value of each entry, so a thousand viewers of one answer decode it once.
    private var decoded: [String: (fetchedAt: Int64, value: any Sendable)] = [:]
    /// Upstream lookups each client (`device:…`, `ip:…`) caused in the last minute.
    private var misses: [String: [Int64]] = [:]
    private var stores = 0
    public static let memoryEntries = 500
    /// Cache misses one client may cause per minute (searches, charts).
    public static let missesPerClientPerMinute = 4
    /// Calls per minute kept for what every viewer shares (trending, the rate, markets).
    private var reserved: Int { max(1, budget.perMinute * 3 / 10) }

    /// One client asked for too many things nobody had asked for yet.
    public struct ClientLimited: Error, Sendable, Equatable {
        public let retryAfter: Int
    }
    private var blockedUntil: Int64 = 0
    public private(set) var upstreamCalls = 0

    /// The shared per-minute budget: calls taken in the last minute, and its size.
    public var budgetFigures: (used: Int, perMinute: Int) { (budget.used(at: now()), budget.perMinute) }

    public init(
        api: any CoinGeckoAPI,
        cache: any CacheStore,
        callsPerMinute: Int = 10,
        freshness: Freshness = .init(),
        sharedBudget: CallCounter? = nil,
        now: @escaping @Sendable () -> Int64 = WallClock.system.milliseconds
    ) {
        self.sharedBudget = sharedBudget
        self.api = api
        self.cache = cache
        self.freshness = freshness
        self.now = now
        budget = CallBudget(perMinute: callsPerMinute)
        (calls, callSink) = AsyncStream.makeStream()
    }

    /// Runs the upstream calls until the service group shuts down (or the task is cancelled);
    /// a caller still waiting then gets `CancellationError`.
    public nonisolated func run() async throws {
        await withDiscardingTaskGroup { group in
            for await call in calls.cancelOnGracefulShutdown() {
                group.addTask(operation: call)
            }
            group.cancelAll()
        }
        callSink.finish()
        await abandonWaiting()
    }

    private func abandonWaiting() {
        for (_, call) in inFlight { call.complete(.failure(CancellationError())) }
        inFlight.removeAll()
    }

    public func trending() async throws -> Cached<Trending> {
        try await fetch("trending", ttl: freshness.trending) { api in
            let rate = try? await self.rate()
            return try await api.trending(krwPerUSD: rate)
        }
    }

    /// - Parameter client: who asks (`device:…`, `ip:…`): a cache miss counts against each.
    public func search(_ query: String, client: Set<String> = []) async throws -> Cached<SearchResults> {
        let key = Self.normalizedQuery(query)
        return try await fetch("search:" + key, ttl: freshness.search, client: client) { try await $0.search(key) }
    }

    /// Trimmed, lower-cased, inner runs of spaces made one: `  Bit  Coin ` and `bit coin` are
    /// one lookup.
    public static func normalizedQuery(_ query: String) -> String {
        query.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    public func markets(ids: [String]) async throws -> Cached<[CoinMarket]> {
        let list = Array(Set(ids)).sorted()
        return try await fetch("markets:" + list.joined(separator: ","), ttl: freshness.markets) { try await $0.markets(ids: list) }
    }

    public func chart(id: String, days: Int, client: Set<String> = []) async throws -> Cached<[PricePoint]> {
        try await fetch("chart:\(id):\(days)", ttl: days <= 1 ? freshness.chart : freshness.chart * 6, client: client) {
            try await $0.chart(id: id, days: days)
        }
    }

    /// Ranks 1 … `blocks` × 250 in `currency`: CoinGecko's pages of 250, each cached on its own
    /// and fetched once for every viewer. The first page is what everyone shares; deeper pages
    /// count against the client that first asks for them.
    public func ranking(currency: RankingCurrency, blocks: Int, client: Set<String> = []) async throws -> Cached<[RankedCoin]> {
        var coins: [RankedCoin] = []
        var oldest = Int64.max
        var stale = false
        var retryAt: Int64?
        for block in 1...max(1, blocks) {
            let part = try await fetch("ranking:\(currency.rawValue):\(block)", ttl: freshness.ranking, client: block == 1 ? [] : client) {
                try await $0.ranking(currency: currency, page: block, perPage: RankingBoard.maxPerPage)
            }
            coins += part.value
            oldest = min(oldest, part.fetchedAt)
            stale = stale || part.stale
            retryAt = part.retryAt ?? retryAt
            // CoinGecko has no more coins past a short page.
            if part.value.count < RankingBoard.maxPerPage { break }
        }
        return Cached(value: coins, fetchedAt: oldest, stale: stale, retryAt: retryAt)
    }

    /// The whole market (`/global`), shared by every viewer.
    public func global() async throws -> Cached<GlobalMarket> {
        try await fetch("global", ttl: freshness.global) { try await $0.global() }
    }

    /// KRW per USD, cached like the rest (trending's KRW prices need it).
    private func rate() async throws -> Double {
        try await krwPerUSD().value
    }

    /// KRW per USD from `/exchange_rates` (the premium's `--fx coingecko`), shared and cached.
    public func krwPerUSD() async throws -> Cached<Double> {
        try await fetch("rate:krw-usd", ttl: freshness.rate) { try await $0.krwPerUSD() }
    }

    // MARK: - The cache

    private func fetch<T: Codable & Sendable>(
        _ key: String,
        ttl: Duration,
        client: Set<String> = [],
        load: @escaping @Sendable (any CoinGeckoAPI) async throws -> T
    ) async throws -> Cached<T> {
        let current = now()
        let ttlMs = Int64(ttl.components.seconds) * 1_000
        if memory[key] == nil, let stored = await cache.get(key) { remember(key, stored.data, fetchedAt: stored.fetchedAt) }
        if let entry = memory[key], let value = decodedValue(T.self, key, entry) {
            memory[key]?.used = current
            if current - entry.fetchedAt < ttlMs { return Cached(value: value, fetchedAt: entry.fetchedAt, stale: false, retryAt: nil) }
            // Stale while revalidating: answer now, refresh behind the scenes if the budget allows.
            _ = refresh(key, load)
            return Cached(value: value, fetchedAt: entry.fetchedAt, stale: true, retryAt: blockedUntil > current ? blockedUntil : nil)
        }
        if inFlight[key] == nil { try countMiss(client, at: current) }
        guard let call = refresh(key, load) else {
            throw FeedError.rateLimited(retryAfter: .milliseconds(max(1_000, nextCallAt() - current)))
        }
        let data = try await call.value()
        if let entry = memory[key], let value = decodedValue(T.self, key, entry) {
            return Cached(value: value, fetchedAt: entry.fetchedAt, stale: false, retryAt: nil)
        }
        let value = try JSONDecoder().decode(T.self, from: data)
        return Cached(value: value, fetchedAt: memory[key]?.fetchedAt ?? now(), stale: false, retryAt: nil)
    }

    private func decodedValue<T: Codable & Sendable>(_ type: T.Type, _ key: String, _ entry: (data: Data, fetchedAt: Int64, used: Int64)) -> T? {
        if let memo = decoded[key], memo.fetchedAt == entry.fetchedAt, let value = memo.value as? T { return value }
        guard let value = try? JSONDecoder().decode(T.self, from: entry.data) else { return nil }
        decoded[key] = (entry.fetchedAt, value)
        return value
    }

    /// The in-flight refresh of `key`, starting one if the budget allows (nil when it does not).
    private func refresh<T: Codable & Sendable>(_ key: String, _ load: @escaping @Sendable (any CoinGeckoAPI) async throws -> T) -> SharedCall<Data>?
    {
        if let running = inFlight[key] { return running }
        let current = now()
        let shared =
            key == "trending" || key == "global" || key.hasPrefix("rate:") || key.hasPrefix("markets:")
            || (key.hasPrefix("ranking:") && key.hasSuffix(":1"))
        guard current >= blockedUntil, budget.take(at: current, limit: shared ? nil : budget.perMinute - reserved).granted else { return nil }
        upstreamCalls += 1
        let api = self.api
        let call = SharedCall<Data>()
        inFlight[key] = call
        let (sharedBudget, perMinute) = (self.sharedBudget, budget.perMinute)
        let yielded = callSink.yield {
            do {
                // The other replicas' calls count too: past the shared budget this is a 429 of our own.
                if let sharedBudget, await !sharedBudget.take("coingecko", perMinute: perMinute, at: current) {
                    throw FeedError.rateLimited(retryAfter: .milliseconds(60_000 - current % 60_000))
                }
                let value = try await load(api)
                let data = try JSONEncoder().encode(value)
                await self.store(key, data, value: value)
                call.complete(.success(data))
            } catch {
                await self.failed(key, error)
                call.complete(.failure(error))
            }
        }
        if case .terminated = yielded {
            inFlight[key] = nil
            call.complete(.failure(CancellationError()))
        }
        return call
    }

    /// Keeps a fresh answer: its bytes for the database and the replicas, and the value itself,
    /// which its first readers would otherwise decode back from the bytes just encoded.
    private func store(_ key: String, _ data: Data, value: any Sendable) async {
        let at = now()
        remember(key, data, fetchedAt: at)
        decoded[key] = (at, value)
        inFlight[key] = nil
        await cache.put(key, data: data, fetchedAt: at)
        stores += 1
        // Now and then, answers nobody asked for in a week leave the database.
        if stores % 200 == 1 { await cache.purge(fetchedBefore: at - 7 * 86_400_000) }
    }

    /// Keeps an answer in memory; past `memoryEntries` the least recently used tenth goes.
    private func remember(_ key: String, _ data: Data, fetchedAt: Int64) {
        memory[key] = (data, fetchedAt, now())
        guard memory.count > Self.memoryEntries else { return }
        for (old, _) in memory.sorted(by: { $0.value.used < $1.value.used }).prefix(Self.memoryEntries / 10) {
            memory[old] = nil
            decoded[old] = nil
        }
    }

    /// A cache miss by `client` (each of its identities): refused past the per-minute limit, so
    /// one client cannot spend the budget everyone shares.
    private func countMiss(_ client: Set<String>, at current: Int64) throws {
        guard !client.isEmpty else { return }
        for id in client {
            misses[id, default: []].removeAll { $0 <= current - 60_000 }
            if let first = misses[id]?.first, misses[id, default: []].count >= Self.missesPerClientPerMinute {
                throw ClientLimited(retryAfter: Int(max(1, (first + 60_000 - current + 999) / 1_000)))
            }
        }
        for id in client { misses[id, default: []].append(current) }
        if misses.count > 10_000 { misses = misses.filter { !($0.value.last.map { $0 <= current - 60_000 } ?? true) } }
    }

    private func failed(_ key: String, _ error: any Error) {
        inFlight[key] = nil
        if case FeedError.rateLimited(let wait)? = error as? FeedError {
            blockedUntil = now() + Int64(wait.components.seconds) * 1_000
        }
    }

    private func nextCallAt() -> Int64 {
        max(blockedUntil, budget.nextFree(at: now()))
    }
}
