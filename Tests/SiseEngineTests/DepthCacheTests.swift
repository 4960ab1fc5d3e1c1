import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseTestSupport
import Synchronization
import Testing

/// One upstream read per market and half second, however many pages ask at once.
@Suite struct DepthCacheTests {
    final class CountingExchange: ExchangeAPI {
        let books = Atomic<Int>(0)
        let tapes = Atomic<Int>(0)
        func markets() async throws -> [Market] { [] }
        func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] { [] }
        func tickers(markets: [MarketID]) async throws -> [Ticker] { [] }
        func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] { [] }
        func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] { [:] }
        func orderbook(market: MarketID) async throws -> Orderbook {
            books.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(50))
            return Orderbook(market: market, timestamp: 1, asks: [.init(price: 101, size: 1)], bids: [.init(price: 100, size: 1)])
        }
        func trades(market: MarketID, count: Int) async throws -> [Trade] {
            tapes.add(1, ordering: .relaxed)
            return (0..<Int64(count)).map {
                Trade(market: market, price: 100, volume: 1, side: .bid, timestamp: $0, sequentialID: $0, prevClosingPrice: 0, changePrice: 0)
            }
        }
    }

    @Test func manyAskersShareOneReadUntilItGoesStale() async throws {
        let upstream = CountingExchange()
        let clock = ManualClock()
        let cache = DepthCache(api: upstream, clock: clock)
        let market = MarketID("KRW-BTC")!
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { _ = try await cache.orderbook(market: market) } }
            for _ in 0..<200 { group.addTask { _ = try await cache.trades(market: market, count: 10) } }
            try await group.waitForAll()
        }
        #expect(upstream.books.load(ordering: .relaxed) == 1 && upstream.tapes.load(ordering: .relaxed) == 1, "one read each for 400 askers")
        #expect(try await cache.trades(market: market, count: 5).map(\.sequentialID) == [49, 48, 47, 46, 45], "newest first, cut to the ask")
        clock.advance(by: .milliseconds(600))
        _ = try await cache.orderbook(market: market)
        #expect(upstream.books.load(ordering: .relaxed) == 2, "read again once stale")
    }
}
