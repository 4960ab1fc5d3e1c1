import Foundation
import SiseCore
import SiseFeeds

/// A market's order book and trade tape read once per `freshness` however many pages ask:
/// the first asker starts the upstream read, everyone asking meanwhile shares it, and the answer
/// serves every asker for the next half second. So 1,000 pages on one coin cost the exchange
/// two REST reads a second, not 2,000. Bounded: at most `maxEntries` markets are kept.
public actor DepthCache {
    private struct Entry<Value: Sendable> {
        var value: Value
        var fetched: ContinuousClock.Instant
    }

    private let api: any ExchangeAPI
    private let freshness: Duration
    private let clock: any MonotonicClock
    private var books: [MarketID: Entry<Orderbook>] = [:]
    private var tapes: [MarketID: Entry<[Trade]>] = [:]
    private var bookReads: [MarketID: Task<Orderbook, any Error>] = [:]
    private var tapeReads: [MarketID: Task<[Trade], any Error>] = [:]
    private let maxEntries = 1_000
    /// Upstream reads made (a test and a benchmark read it).
    public private(set) var reads = 0

    public init(api: any ExchangeAPI, freshness: Duration = .milliseconds(500), clock: any MonotonicClock = .system) {
        self.api = api
        self.freshness = freshness
        self.clock = clock
    }

    public func orderbook(market: MarketID) async throws -> Orderbook {
        if let hit = books[market], hit.fetched.duration(to: clock.now) < freshness { return hit.value }
        if let running = bookReads[market] { return try await running.value }
        let api = api
        let task = Task { try await api.orderbook(market: market) }
        bookReads[market] = task
        reads += 1
        defer { bookReads[market] = nil }
        let book = try await task.value
        if books.count >= maxEntries { books.removeAll(keepingCapacity: true) }
        books[market] = Entry(value: book, fetched: clock.now)
        return book
    }

    /// The last `count` trades (at most `TradeTape.limit`), from one shared read of the longest tape.
    public func trades(market: MarketID, count: Int) async throws -> [Trade] {
        if let hit = tapes[market], hit.fetched.duration(to: clock.now) < freshness { return Array(hit.value.prefix(count)) }
        if let running = tapeReads[market] { return Array(try await running.value.prefix(count)) }
        let api = api
        let task = Task { TradeTape.newestFirst(try await api.trades(market: market, count: TradeTape.limit)) }
        tapeReads[market] = task
        reads += 1
        defer { tapeReads[market] = nil }
        let tape = try await task.value
        if tapes.count >= maxEntries { tapes.removeAll(keepingCapacity: true) }
        tapes[market] = Entry(value: tape, fetched: clock.now)
        return Array(tape.prefix(count))
    }
}
