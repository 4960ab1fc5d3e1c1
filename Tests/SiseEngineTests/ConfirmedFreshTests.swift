import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseTestSupport
import Synchronization
import Testing

/// A row confirmed by the exchange with the same figures is news to nobody, but it is fresh:
/// the published board moves its arrival time (which stale marks and the premium's USDT rate
/// read). The simulator's prices move every moment, so an exchange that repeats itself is
/// scripted here: REST answers one unchanging ticker and the stream never connects, so the
/// board polls.
@Suite struct ConfirmedFreshTests {
    static let usdt = MarketID("KRW-USDT")!

    struct RepeatingExchange: ExchangeAPI {
        let ticker = Ticker(
            market: ConfirmedFreshTests.usdt,
            price: 1_450,
            change: .even,
            signedChangePrice: 0,
            signedChangeRate: 0,
            tradeTimestamp: 1_000,
            timestamp: 1_000
        )
        func markets() async throws -> [Market] { [Market(id: ConfirmedFreshTests.usdt, koreanName: "테더", englishName: "Tether")] }
        func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] { [ticker] }
        func tickers(markets: [MarketID]) async throws -> [Ticker] { [ticker] }
        func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] { [] }
        func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] { [:] }
        func orderbook(market: MarketID) async throws -> Orderbook { Orderbook(market: market, timestamp: 0, asks: [], bids: []) }
        func trades(market: MarketID, count: Int) async throws -> [Trade] { [] }
    }

    struct SilentStream: TickerStreaming {
        func run(
            codes: @escaping @Sendable () async -> [MarketID],
            events: @escaping @Sendable (TickerStreamEvent) async -> Void,
            accept: @escaping @Sendable (Ticker) -> Bool
        ) async {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) }
        }
        func resubscribe() {}
        func hostIsHealthy(_ healthy: Bool) {}
    }

    @Test func aRowConfirmedWithTheSameFiguresIsPublishedFresh() async throws {
        let clock = Atomic<Int64>(1_000_000)
        let board = LiveBoard(
            configuration: .init(exchange: .upbit, quotes: [.krw], pollInterval: .milliseconds(50)),
            api: RepeatingExchange(),
            stream: SilentStream(),
            now: { clock.load(ordering: .relaxed) }
        )
        let task = Task { try? await board.run() }
        defer { task.cancel() }
        #expect(await board.waitForData(upTo: .seconds(5)))
        #expect(board.snapshot.receivedAt[Self.usdt] == 1_000_000)
        // A subscriber from here on: the polls that follow repeat the same figures. What the first
        // load published may still be on its way to it (a busy machine): only what is told after
        // the clock moves counts.
        let counting = Atomic<Bool>(false)
        let changesTold = Task {
            var told = 0
            for await update in board.updates() {
                if case .changes(let rows) = update, counting.load(ordering: .acquiring) { told += rows.count }
            }
            return told
        }
        try await Task.sleep(for: .milliseconds(200))
        counting.store(true, ordering: .releasing)
        clock.store(1_060_000, ordering: .relaxed)
        try await expectEventually(timeout: .seconds(5)) { board.snapshot.receivedAt[Self.usdt] == 1_060_000 }
        #expect(board.snapshot.rows[Self.usdt]?.ticker.price == 1_450)
        try await Task.sleep(for: .milliseconds(300))
        changesTold.cancel()
        #expect(await changesTold.value == 0, "nobody is told of a row that did not change")
    }
}
