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

/// Volume spikes and indicator signals through the engine from the simulator's real ticker
/// stream (a spike reads only the rolling 24-hour value). The simulator's clock runs 30 times real time (a minute's window is
/// covered in two seconds), and one market is made to trade 20 times its usual pace.
@Suite(.serialized) struct AlertEngineSignalTests {
    @Test func aSurgeFiresItsSpikeAndAQuietMarketDoesNot() async throws {
        let start = Date().timeIntervalSince1970
        let fast = SimulatorConfiguration(now: { start + (Date().timeIntervalSince1970 - start) * 30 })
        try await withSimulator(fast) { simulator in
            let harness = LiveBoardHarness.start(simulator)
            let store = AlertStore(database: try TestStores.sqlite())
            let fired = Mutex<[AlertFiring]>([])
            let engine = AlertEngine(boards: ExchangeBoards(default: harness.board), store: store, logger: Logger(label: "test")) { firing in
                fired.withLock { $0.append(firing) }
            }
            let running = ServiceTask(engine)
            try await expectEventually(timeout: .seconds(15), "the board is live") { harness.state == .live }
            let rules = ["KRW-XRP", "KRW-ETH", "KRW-BTC"].map { market in
                AlertRule(id: market, owner: "o", exchange: .upbit, market: MarketID(market)!, kind: .volumeSpike, value: 3, windowMinutes: 1)
            }
            for rule in rules {
                try await store.add(rule)
                await engine.upsert(rule)
            }
            // Three simulated minutes at the usual pace: every window is covered, nothing fires.
            try await Task.sleep(for: .seconds(6))
            #expect(fired.withLock { $0.isEmpty }, "at its usual pace no market trades 3× its usual pace")
            try await SimAdmin.post(simulator, "/_sim/surge?exchange=upbit", #"{"market":"KRW-XRP","factor":20}"#)
            try await expectEventually(timeout: .seconds(15), "the surge is read as a spike") {
                fired.withLock { $0.contains { $0.alertId == "KRW-XRP" } }
            }
            let firing = try #require(fired.withLock { $0.first })
            #expect(firing.rule == "volumeSpike" && (firing.observed ?? 0) >= 3, "\(firing)")
            #expect(firing.message["ko"]?.contains("1분 거래대금 평소의 3배 이상") == true, "\(firing.message)")
            try await Task.sleep(for: .seconds(1))
            #expect(fired.withLock { $0.map(\.alertId) } == ["KRW-XRP"], "the quiet markets stay quiet; a one-shot rule fires once")
            #expect(try await store.rules(owner: "o").first { $0.id == "KRW-XRP" }?.enabled == false, "a fired one-shot rule is off in the store")
            await running.stop()
            await harness.stop()
        }
    }

    /// An indicator rule through the engine: its series seeded from the simulator's candles, then
    /// a golden cross (MA 2 × 3 on 1m candles) made by pinning the price low for three candles and
    /// then high: it fires on the close of the first high candle (`AlertFiringTableTests` shows a
    /// forming candle never fires).
    @Test func aGoldenCrossFiresOnTheCloseThatMakesIt() async throws {
        let start = Date().timeIntervalSince1970
        let fast = SimulatorConfiguration(now: { start + (Date().timeIntervalSince1970 - start) * 30 })
        try await withSimulator(fast) { simulator in
            let harness = LiveBoardHarness.start(simulator)
            let store = AlertStore(database: try TestStores.sqlite())
            let fired = Mutex<[AlertFiring]>([])
            let engine = AlertEngine(boards: ExchangeBoards(default: harness.board), store: store, logger: Logger(label: "test")) { firing in
                fired.withLock { $0.append(firing) }
            }
            let running = ServiceTask(engine)
            try await expectEventually(timeout: .seconds(15), "the board is live") { harness.state == .live }
            let btc = MarketID("KRW-BTC")!
            let price = try #require(harness.board.snapshot.rows[btc]?.ticker.price)
            try await SimAdmin.post(simulator, "/_sim/price?exchange=upbit", #"{"market":"KRW-BTC","price":\#(price * 0.9)}"#)
            let rule = AlertRule(
                id: "cross",
                owner: "o",
                exchange: .upbit,
                market: btc,
                kind: .indicator,
                value: 0,
                windowMinutes: 1,
                indicator: .maCrossUp(fast: 2, slow: 3)
            )
            try await store.add(rule)
            await engine.upsert(rule)
            // Three simulated minutes low (two seconds each), then high.
            try await Task.sleep(for: .seconds(7))
            #expect(fired.withLock { $0.isEmpty }, "a flat low price crosses nothing")
            try await SimAdmin.post(simulator, "/_sim/price?exchange=upbit", #"{"market":"KRW-BTC","price":\#(price * 1.2)}"#)
            try await expectEventually(timeout: .seconds(15), "the cross is read on a close") { fired.withLock { !$0.isEmpty } }
            let firing = try #require(fired.withLock { $0.first })
            #expect(firing.rule == "indicator" && firing.message["en"]?.contains("1m MA 2 crossed above MA 3") == true, "\(firing)")
            await running.stop()
            await harness.stop()
        }
    }

    /// A 체결강도 rule makes its market's 체결 carried with no page watching (the alerts' own watch
    /// on the depth feed), fires from the tape, and lets the market go when the rule goes.
    @Test func aStrengthLineReadsTheTapeItAsksFor() async throws {
        try await withSimulator { simulator in
            let harness = LiveBoardHarness.start(simulator)
            let spec = ExchangeRegistry.spec(.upbit)
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let stream = try #require(spec.depthStream(spec.simulated(at: simulator.baseURL), silence: .seconds(5), logger: logger))
            let feed = DepthFeed(exchange: .upbit, stream: stream, logger: logger)
            let feedTask = ServiceTask(feed)
            let store = AlertStore(database: try TestStores.sqlite())
            let fired = Mutex<[AlertFiring]>([])
            let engine = AlertEngine(boards: ExchangeBoards(default: harness.board), depth: [.upbit: feed], store: store, logger: logger) {
                firing in fired.withLock { $0.append(firing) }
            }
            let running = ServiceTask(engine)
            try await expectEventually(timeout: .seconds(15), "the board is live") { harness.state == .live }
            #expect(try await DepthFeedTests.connections(simulator, "upbit") == 0, "no rule, no page: no depth connection")
            // Any tape with buys and sells is at or above 1 %.
            let rule = AlertRule(id: "strong", owner: "o", exchange: .upbit, market: MarketID("KRW-BTC")!, kind: .strengthAbove, value: 1)
            try await store.add(rule)
            await engine.upsert(rule)
            try await expectEventually(timeout: .seconds(20), "the tape is read") { fired.withLock { !$0.isEmpty } }
            let firing = try #require(fired.withLock { $0.first })
            #expect(firing.rule == "strengthAbove" && (firing.observed ?? 0) > 1, "\(firing)")
            #expect(firing.message["ko"]?.contains("체결강도 1% 이상") == true, "\(firing.message)")
            engine.remove(rule.id)
            try await expectEventually(timeout: .seconds(10), "the market let go") { !feed.connected }
            await running.stop()
            await feedTask.stop()
            await harness.stop()
        }
    }
}
