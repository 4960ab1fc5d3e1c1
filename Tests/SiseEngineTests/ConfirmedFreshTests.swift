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

    final class RepeatingExchange: ExchangeAPI {
        /// The one price it answers (the test moves it once, at the end).
        let price = Atomic<Int>(1_450)
        var ticker: Ticker {
            Ticker(
                market: ConfirmedFreshTests.usdt,
                price: Double(price.load(ordering: .relaxed)),
                change: .even,
                signedChangePrice: 0,
                signedChangeRate: 0,
                tradeTimestamp: 1_000,
                timestamp: 1_000
            )
        }
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
        let exchange = RepeatingExchange()
        let board = LiveBoard(
            configuration: .init(exchange: .upbit, quotes: [.krw], pollInterval: .milliseconds(50)),
            api: exchange,
            stream: SilentStream(),
            now: { clock.load(ordering: .relaxed) }
        )
        // Every price the board tells, in order, from before its first load.
        let (told, teller) = AsyncStream.makeStream(of: Double.self)
        let following = Task {
            for await update in board.updates() {
                if case .changes(let rows) = update { for row in rows { teller.yield(row.ticker.price) } }
            }
            teller.finish()
        }
        defer { following.cancel() }
        let task = Task { try? await board.run() }
        defer { task.cancel() }
        #expect(await board.waitForData(upTo: .seconds(5)))
        #expect(board.snapshot.receivedAt[Self.usdt] == 1_000_000)
        // The polls that follow repeat the same figures: the row is confirmed fresh ...
        clock.store(1_060_000, ordering: .relaxed)
        try await expectEventually(timeout: .seconds(5)) { board.snapshot.receivedAt[Self.usdt] == 1_060_000 }
        #expect(board.snapshot.rows[Self.usdt]?.ticker.price == 1_450)
        // ... and told to nobody: the next thing told is the next real change (updates arrive
        // in order, so a repeat told would come before it).
        exchange.price.store(1_451, ordering: .relaxed)
        var prices: [Double] = []
        for await price in told {
            prices.append(price)
            if price == 1_451 { break }
        }
        #expect(prices.filter { $0 == 1_450 }.count <= 1, "nobody is told of a row that did not change: \(prices)")
        #expect(prices.last == 1_451)
    }
}
