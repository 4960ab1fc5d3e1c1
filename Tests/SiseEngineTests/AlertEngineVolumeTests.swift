import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseSimulator
import SiseStore
import SiseTestSupport
import Synchronization
import Testing

/// Volume spikes through the engine from the simulator's real ticker stream: the rolling 24-hour
/// value is all it reads. The simulator's clock runs 30 times real time (a minute's window is
/// covered in two seconds), and one market is made to trade 20 times its usual pace.
@Suite(.serialized) struct AlertEngineVolumeTests {
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
}
