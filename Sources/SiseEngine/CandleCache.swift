import Foundation
import SiseCore
import SiseFeeds

/// Upbit's API with its latest candles cached: one fetch per (market, unit, count) for the
/// candle's natural period (at most `maxFreshness`), identical concurrent requests sharing it,
/// and beyond `maxFetches` different fetches in flight a typed refusal at once instead of a
/// queue that grows while the rate limiter spaces them out. Everything else passes through.
public actor CandleCache: ExchangeAPI {
    /// Too many different candle fetches are already waiting: come back shortly.
    public struct Busy: Error, Sendable {
        public let retryAfter: Int
    }

    private struct Key: Hashable {
        let market: MarketID
        let unit: CandleUnit
        let count: Int
    }

    private let api: any ExchangeAPI
    public nonisolated var requestCounts: [RateLimitGroup: UpstreamRequestCount] { api.requestCounts }
    private let maxFreshness: Duration
    private let maxFetches: Int
    private let clock: any MonotonicClock
    private var entries: [Key: (candles: [Candle], fetched: ContinuousClock.Instant)] = [:]
    private var inFlight: [Key: Task<[Candle], any Error>] = [:]
    private let maxEntries = 2_000
    /// The book and tape reads, shared between every page.
    public nonisolated let depth: DepthCache

    public init(
        api: any ExchangeAPI,
        maxFreshness: Duration = .seconds(600),
        maxFetches: Int = 8,
        clock: any MonotonicClock = .system
    ) {
        self.api = api
        self.depth = DepthCache(api: api, clock: clock)
        self.maxFreshness = maxFreshness
        self.maxFetches = maxFetches
        self.clock = clock
    }

    public func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] {
        guard to == nil else { return try await api.candles(market: market, unit: unit, count: count, to: to) }
        let key = Key(market: market, unit: unit, count: count)
        if let hit = entries[key], hit.fetched.duration(to: clock.now) < freshness(unit) { return hit.candles }
        if let running = inFlight[key] { return try await running.value }
        guard inFlight.count < maxFetches else { throw Busy(retryAfter: 1) }
        let api = api
        let task = Task { try await api.candles(market: market, unit: unit, count: count, to: nil) }
        inFlight[key] = task
        defer { inFlight[key] = nil }
        let candles = try await task.value
        if entries.count >= maxEntries { entries.removeAll(keepingCapacity: true) }
        entries[key] = (candles, clock.now)
        return candles
    }

    /// A candle's own period, capped: a chart of 10-minute candles is fresh for 10 minutes.
    private func freshness(_ unit: CandleUnit) -> Duration {
        let period: Duration =
            switch unit {
            case .seconds: .seconds(1)
            case .minutes(let n): .seconds(60 * n)
            case .days, .weeks, .months, .years: .seconds(86_400)
            }
        return min(period, maxFreshness)
    }

    public nonisolated func markets() async throws -> [Market] { try await api.markets() }
    public nonisolated func serves(_ unit: CandleUnit) -> Bool { api.serves(unit) }
    /// Books and tapes through one shared read per market and half second (`DepthCache`).
    public nonisolated func orderbook(market: MarketID) async throws -> Orderbook { try await depth.orderbook(market: market) }
    public nonisolated func trades(market: MarketID, count: Int) async throws -> [Trade] { try await depth.trades(market: market, count: count) }
    public nonisolated func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] { try await api.tickers(quotes: quotes) }
    public nonisolated func tickers(markets: [MarketID]) async throws -> [Ticker] { try await api.tickers(markets: markets) }
    public nonisolated func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] { try await api.tickSizes(markets: markets) }
}
