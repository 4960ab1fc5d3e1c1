import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseStore
import SiseTestSupport
import Synchronization
import Testing

/// The deemed price recorded across 2027-01-01 00:00 KST with the simulator's clock driven there:
/// two replicas watch the instant pass on one store (SQLite) and write each reading once; the
/// stream's last trade at or before the instant and the candles' close of the minute before it
/// tell one price for every coin; two servers started after the instant (on PostgreSQL when the
/// test command runs one) fill the same prices from candles alone.
@Suite(.serialized) struct DeemedPriceRecorderTests {
    static let instant = TaxRules.deemedInstant

    /// A wall clock reading `start` now, running at the machine's pace.
    static func clock(startingAt start: Int64) -> WallClock {
        let offset = start - WallClock.system.now
        return WallClock { WallClock.system.now + offset }
    }

    static var timing: DeemedPriceRecorder.Timing {
        var timing = DeemedPriceRecorder.Timing()
        timing.settle = 1_500
        timing.candleDelay = 2_000
        timing.retry = .seconds(1)
        timing.candlePause = .milliseconds(5)
        return timing
    }

    /// Two replicas on `store` run to the end: both watch the stream at once; the first reads the
    /// candles, and the second — its stream readings already held — reads only what is missing
    /// (the exchange's candle limit is 10 a second: 87 coins twice at once would only wait).
    static func replicas(_ board: LiveBoard, _ simulator: RunningSimulator, store: DeemedPriceStore, clock: WallClock) async throws {
        let transport = LiveHTTPTransport()
        let api = V1QuotationClient(configuration: .init(baseURL: simulator.baseURL), transport: transport)
        let recorder = { @Sendable (apis: [Exchange: any ExchangeAPI]) in
            DeemedPriceRecorder(
                boards: ExchangeBoards(default: board),
                apis: apis,
                store: store,
                clock: clock,
                timing: timing,
                logger: Logger(label: "test")
            )
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await recorder([.upbit: api]).run() }
            group.addTask { try await recorder([:]).run() }
            try await group.waitForAll()
        }
        try await recorder([.upbit: api]).run()
        await transport.shutdown()
    }

    @Test func theInstantIsRecordedOnceFromTheStreamAndCheckedByCandles() async throws {
        let clock = Self.clock(startingAt: Self.instant - 6_000)
        var faults = SimFaults()
        faults.wsRate = 2_000
        let configuration = SimulatorConfiguration(krwMarkets: 6, faults: faults, now: { Double(clock.now) / 1_000 })
        try await withSimulator(configuration) { simulator in
            let harness = LiveBoardHarness.start(simulator, now: clock.milliseconds)
            try await expectEventually(timeout: .seconds(4)) { harness.state == .live }
            let listed = harness.board.snapshot.rows.keys.filter { $0.quote == "KRW" }.map(\.base).sorted()
            #expect(listed.count >= 5)
            #expect(clock.now < Self.instant - 1_000, "the instant is still ahead")

            let database = try TestStores.sqlite()
            let store = DeemedPriceStore(database: database)
            try await Self.replicas(harness.board, simulator, store: store, clock: clock)
            let readings = try await store.readings(instant: Self.instant)
            let streams = Dictionary(grouping: readings.filter { $0.source == .stream }, by: \.coin)
            let candles = Dictionary(grouping: readings.filter { $0.source == .candle }, by: \.coin)
            #expect(streams.keys.sorted() == listed && candles.keys.sorted() == listed, "every listed coin, both ways")
            #expect(streams.values.allSatisfy { $0.count == 1 } && candles.values.allSatisfy { $0.count == 1 }, "written once")
            for reading in readings { #expect(reading.tradedAt <= Self.instant && reading.price > 0, "\(reading)") }
            #expect(streams.values.joined().allSatisfy { $0.tradedAt > Self.instant - 1_000 }, "each the last trade before the instant")
            let prices = try await store.prices()
            for coin in listed {
                let stream = try #require(streams[coin]?.first)
                let candle = try #require(candles[coin]?.first)
                #expect(stream.price == candle.price, "\(coin): the stream and the candles agree")
                #expect(prices[coin]?.quotes.first?.source == .stream && prices[coin]?.disagreements == [] && prices[coin]?.recorded == true)
            }
            await database.close()

            // Servers started after the instant: candles alone, the same prices.
            #expect(clock.now > Self.instant)
            let laterDatabase = try await TestStores.postgres() ?? TestStores.sqlite()
            let later = DeemedPriceStore(database: laterDatabase)
            try await Self.replicas(harness.board, simulator, store: later, clock: clock)
            let filled = try await later.readings(instant: Self.instant)
            #expect(filled.allSatisfy { $0.source == .candle } && filled.count == listed.count, "\(laterDatabase.dialect): once each, from candles")
            let filledPrices = try await later.prices()
            for coin in listed { #expect(filledPrices[coin]?.average == prices[coin]?.average, "\(coin) filled from candles") }
            await laterDatabase.close()

            // A terminal after the instant (no recorder runs in `sise tax` or the TUI): the coins
            // it holds are read from candles on the first preview and kept; the next reads the store.
            let terminalDatabase = try TestStores.sqlite()
            let transport = LiveHTTPTransport()
            let api = V1QuotationClient(configuration: .init(baseURL: simulator.baseURL), transport: transport)
            let asked = Mutex(0)
            let fill = DeemedPriceFill(store: DeemedPriceStore(database: terminalDatabase)) { exchange, coins in
                asked.withLock { $0 += coins.count }
                return await DeemedCandles.read(coins, on: exchange, api: api, instant: Self.instant, pause: .milliseconds(5))
            }
            let held = Set(listed.prefix(2))
            let tickers = [Exchange.upbit: harness.board.snapshot.rows.values.map(\.ticker)]
            let first = try await fill.prices(of: held, tickers: tickers, now: clock.now)
            #expect(first.keys.sorted() == held.sorted(), "the coins held, no more")
            for coin in held { #expect(first[coin]?.average == prices[coin]?.average, "\(coin): the recorder's price") }
            _ = try await fill.prices(of: held, tickers: tickers, now: clock.now)
            #expect(asked.withLock { $0 } == 2, "each read once; the second preview from the store")
            #expect(try await fill.prices(of: held, tickers: tickers, now: Self.instant - 1).isEmpty, "before the instant: the live average")
            await transport.shutdown()
            await terminalDatabase.close()
            await harness.stop()
        }
    }
}
