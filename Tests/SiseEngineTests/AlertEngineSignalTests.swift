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

/// Volume spikes, indicator signals and 체결강도 lines through the engine from the simulator's real
/// streams (a spike reads only the rolling 24-hour value). Where minutes must pass, the simulator's
/// clock runs 30 times real time (a minute's window or candle in two seconds). Nothing is proven
/// by sleeping: a quiet market fired nothing once the engine has applied its ticks through the
/// simulated minutes asked about (`appliedThrough`), and a P&L line was read again once the
/// engine's driven clock moved a second and its P&L read counted (`pnlReads`).
@Suite(.serialized) struct AlertEngineSignalTests {
    /// What a test drives: the simulator, its Upbit board (and depth feed), the engine and its store,
    /// and the firings as they are handed to delivery.
    struct Rig: Sendable {
        let simulator: RunningSimulator
        let harness: LiveBoardHarness
        let feed: DepthFeed
        let engine: AlertEngine
        let store: AlertStore
        /// The alerts' store, which also keeps the favorites and holdings wide rules follow.
        let database: AppDatabase
        let fired: Firings
        /// The simulator's time of day (epoch ms), as its ticks are stamped.
        let simulatedNow: @Sendable () -> Int64
        /// The engine's clock for its loops (nil: the real one).
        let pace: ManualClock?

        /// Waits until the engine has applied ticks stamped `minutes` simulated minutes after now.
        func applied(minutes: Double) async throws {
            let through = simulatedNow() + Int64(minutes * 60_000)
            try await expectEventually(timeout: .seconds(30), "the engine applied \(minutes) simulated minutes") {
                engine.appliedThrough >= through
            }
        }

        /// The driven clock moved one second and the P&L lines read once more (and every loop
        /// it woke asleep again: a read counts just before its loop sleeps).
        func readPnLAgain() async throws {
            let clock = try #require(pace, "a P&L step needs the driven clock")
            let (before, asleep) = (engine.pnlReads, clock.sleepers)
            clock.advance(by: .seconds(1))
            try await expectEventually(timeout: .seconds(20), "the P&L lines read again") {
                engine.pnlReads > before && clock.sleepers >= asleep
            }
        }

        func add(_ rule: AlertRule) async throws {
            try await store.add(rule)
            await engine.upsert(rule)
        }

        /// One BTC in owner `o`'s portfolio, bought at twice the board's price (down about 50 %).
        @discardableResult func boughtBitcoinAtTwiceItsPrice() async throws -> (MarketID, Double) {
            let btc = try #require(MarketID("KRW-BTC"))
            let price = try #require(harness.board.snapshot.rows[btc]?.ticker.price)
            let bought = PortfolioTransaction(
                id: "t1",
                kind: .buy,
                exchange: .upbit,
                market: btc,
                quantity: 1,
                price: PortfolioLedger.decimal(from: price * 2),
                at: WallClock.system.now
            )
            _ = try await PortfolioStore(database: database).add(owner: "o", [bought])
            return (btc, price)
        }
    }

    final class Firings: Sendable {
        private let list = Mutex<[AlertFiring]>([])
        func add(_ firing: AlertFiring) { list.withLock { $0.append(firing) } }
        var all: [AlertFiring] { list.withLock { $0 } }
    }

    /// The rig over a simulator whose clock runs `speed` times real time, stopped afterwards.
    /// `pace`: the engine's loops sleep on it (the P&L reads, the sweeps) instead of the real clock.
    func withRig(speed: Double = 1, pace: ManualClock? = nil, _ body: @Sendable (Rig) async throws -> Void) async throws {
        let start = Date().timeIntervalSince1970
        let simulated: @Sendable () -> Double = { start + (Date().timeIntervalSince1970 - start) * speed }
        let configuration = SimulatorConfiguration(now: simulated)
        try await withSimulator(configuration) { simulator in
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let harness = LiveBoardHarness.start(simulator)
            let spec = ExchangeRegistry.spec(.upbit)
            let stream = try #require(spec.depthStream(spec.simulated(at: simulator.baseURL), silence: .seconds(5), logger: logger))
            let feed = DepthFeed(exchange: .upbit, stream: stream, logger: logger)
            let database = try TestStores.sqlite()
            let store = AlertStore(database: database)
            let fired = Firings()
            let engine = AlertEngine(
                boards: ExchangeBoards(default: harness.board),
                depth: [.upbit: feed],
                store: store,
                lists: WatchLists(database: database),
                pace: pace ?? .system,
                logger: logger
            ) { fired.add($0) }
            let services = [ServiceTask(feed), ServiceTask(engine)]
            try await expectEventually(timeout: .seconds(15), "the board is live") { harness.state == .live }
            let rig = Rig(
                simulator: simulator,
                harness: harness,
                feed: feed,
                engine: engine,
                store: store,
                database: database,
                fired: fired,
                simulatedNow: { Int64(simulated() * 1_000) },
                pace: pace
            )
            try await body(rig)
            for service in services.reversed() { await service.stop() }
            await harness.stop()
        }
    }

    /// "Any favorite trades 3× its pace": a surge on a coin not starred fires nothing; starred, the
    /// same surge fires under the rule's id with the coin's market; unstarred, it is let go.
    @Test func aFavoritesSpikeFollowsTheStarsAsTheyChange() async throws {
        try await withRig(speed: 30) { rig in
            let favorites = StoredFavorites(database: rig.database)
            try await favorites.add(owner: "o", item: "KRW-ETH")
            try await rig.add(
                AlertRule(
                    id: "wide",
                    owner: "o",
                    exchange: .upbit,
                    market: AlertTarget.favorites.market,
                    kind: .volumeSpike,
                    value: 3,
                    windowMinutes: 1,
                    target: .favorites,
                    recurring: true,
                    cooldownSeconds: 3_600
                )
            )
            #expect(rig.engine.ruleCount == 1)
            try await SimAdmin.post(rig.simulator, "/_sim/surge?exchange=upbit", #"{"market":"KRW-XRP","factor":20}"#)
            // Two simulated minutes of the surge: a 1-minute window over it, and then some.
            try await rig.applied(minutes: 2)
            #expect(rig.fired.all.isEmpty, "XRP is not a favorite: its surge is nobody's alert")
            try await favorites.add(owner: "o", item: "KRW-XRP")
            await rig.engine.listsChanged(owner: "o")
            try await expectEventually(timeout: .seconds(20), "starred, XRP's surge fires") { !rig.fired.all.isEmpty }
            let firing = try #require(rig.fired.all.first)
            #expect(firing.alertId == "wide" && firing.market == "KRW-XRP" && firing.rule == "volumeSpike", "\(firing)")
            #expect(firing.message["en"]?.contains("any of my favorites") == true, "\(firing.message)")
            #expect(try await favorites.remove(owner: "o", item: "KRW-XRP"))
            await rig.engine.listsChanged(owner: "o")
            let history = try await rig.store.history(owner: "o")
            #expect(history.map(\.market) == ["KRW-XRP"], "claimed once, for its market")
        }
    }

    /// P&L lines read the owner's positions at the board's live prices: BTC bought at twice its
    /// price is down about 50 %, so its own line (below −10 %) and the portfolio's total (below
    /// −40 % of the price in KRW) fire, each once; a return line above +50 % on every holding does not.
    @Test func aHoldingsAndThePortfoliosLossesFireTheirLines() async throws {
        try await withRig(pace: ManualClock()) { rig in
            let (btc, price) = try await rig.boughtBitcoinAtTwiceItsPrice()
            let rules = [
                AlertRule(id: "one", owner: "o", exchange: .upbit, market: btc, kind: .pnlBelow, value: -10),
                AlertRule(
                    id: "total",
                    owner: "o",
                    exchange: .upbit,
                    market: AlertTarget.portfolio.market,
                    kind: .pnlAmountBelow,
                    value: PortfolioLedger.decimal(from: -price * 0.4),
                    target: .portfolio
                ),
                AlertRule(
                    id: "each",
                    owner: "o",
                    exchange: .upbit,
                    market: AlertTarget.holdings.market,
                    kind: .pnlAbove,
                    value: 50,
                    target: .holdings,
                    recurring: true
                ),
            ]
            for rule in rules { try await rig.add(rule) }
            try await rig.readPnLAgain()
            #expect(Set(rig.fired.all.map(\.alertId)) == ["one", "total"], "both loss lines fire at the first read")
            // Two reads more: nothing again.
            try await rig.readPnLAgain()
            try await rig.readPnLAgain()
            let fired = Dictionary(uniqueKeysWithValues: rig.fired.all.map { ($0.alertId, $0) })
            #expect(rig.fired.all.count == 2, "each once; the gain line stays quiet: \(rig.fired.all.map(\.alertId))")
            #expect(fired["one"]?.market == "KRW-BTC" && (fired["one"]?.observed ?? 0) < -40, "\(String(describing: fired["one"]))")
            #expect(fired["total"]?.market == "portfolio" && (fired["total"]?.observed ?? 0) < -price * 0.4, "\(String(describing: fired["total"]))")
            #expect(fired["total"]?.message["en"]?.hasPrefix("portfolio total P&L at or below -") == true)
        }
    }

    /// A restart: a second engine over the same store re-reads the lists and the positions and
    /// finds every holding's loss line true again at once — but within its cool-down the store's
    /// claim (one row a rule and market) keeps it from being told twice.
    @Test func aRestartTellsAWideLineNoSecondTime() async throws {
        try await withRig(pace: ManualClock()) { rig in
            try await rig.boughtBitcoinAtTwiceItsPrice()
            try await rig.add(
                AlertRule(
                    id: "each",
                    owner: "o",
                    exchange: .upbit,
                    market: AlertTarget.holdings.market,
                    kind: .pnlBelow,
                    value: -10,
                    target: .holdings,
                    recurring: true,
                    cooldownSeconds: 3_600
                )
            )
            try await rig.readPnLAgain()
            #expect(rig.fired.all.count == 1, "the holding's loss is told")
            let again = Firings()
            let restarted = AlertEngine(
                boards: ExchangeBoards(default: rig.harness.board),
                store: rig.store,
                lists: WatchLists(database: rig.database),
                pace: try #require(rig.pace)
            ) { again.add($0) }
            let running = ServiceTask(restarted)
            try await expectEventually(timeout: .seconds(10), "the restarted engine read its lines once") {
                restarted.ruleCount == 1 && restarted.pnlReads > 0
            }
            #expect(again.all.isEmpty, "told before the restart, within its cool-down: not again")
            #expect(try await rig.store.history(owner: "o").count == 1)
            await running.stop()
        }
    }

    @Test func aSurgeFiresItsSpikeAndAQuietMarketDoesNot() async throws {
        try await withRig(speed: 30) { rig in
            for market in ["KRW-XRP", "KRW-ETH", "KRW-BTC"] {
                try await rig.add(
                    AlertRule(id: market, owner: "o", exchange: .upbit, market: MarketID(market)!, kind: .volumeSpike, value: 3, windowMinutes: 1)
                )
            }
            // Three simulated minutes at the usual pace: every window is covered, nothing fires.
            try await rig.applied(minutes: 3)
            #expect(rig.fired.all.isEmpty, "at its usual pace no market trades 3× its usual pace")
            try await SimAdmin.post(rig.simulator, "/_sim/surge?exchange=upbit", #"{"market":"KRW-XRP","factor":20}"#)
            try await expectEventually(timeout: .seconds(15), "the surge is read as a spike") { rig.fired.all.contains { $0.alertId == "KRW-XRP" } }
            let firing = try #require(rig.fired.all.first)
            #expect(firing.rule == "volumeSpike" && (firing.observed ?? 0) >= 3, "\(firing)")
            #expect(firing.message["ko"]?.contains("1분 거래대금 평소의 3배 이상") == true, "\(firing.message)")
            try await rig.applied(minutes: 0.5)
            #expect(rig.fired.all.map(\.alertId) == ["KRW-XRP"], "the quiet markets stay quiet; a one-shot rule fires once")
            #expect(try await rig.store.rules(owner: "o").first { $0.id == "KRW-XRP" }?.enabled == false, "a fired one-shot rule is off in the store")
        }
    }

    /// A golden cross (MA 2 × 3 on 1m candles) made by pinning the price low for three candles and
    /// then high: it fires on the close of the first high candle (`AlertFiringTableTests` shows a
    /// forming candle never fires); the series was seeded from the simulator's candles first.
    @Test func aGoldenCrossFiresOnTheCloseThatMakesIt() async throws {
        try await withRig(speed: 30) { rig in
            let btc = MarketID("KRW-BTC")!
            let price = try #require(rig.harness.board.snapshot.rows[btc]?.ticker.price)
            try await SimAdmin.post(rig.simulator, "/_sim/price?exchange=upbit", #"{"market":"KRW-BTC","price":\#(price * 0.9)}"#)
            try await rig.add(
                AlertRule(
                    id: "cross",
                    owner: "o",
                    exchange: .upbit,
                    market: btc,
                    kind: .indicator,
                    value: 0,
                    windowMinutes: 1,
                    indicator: .maCrossUp(fast: 2, slow: 3)
                )
            )
            // Three simulated minutes low (two seconds each) and the next candle begun, then high.
            try await rig.applied(minutes: 3.5)
            #expect(rig.fired.all.isEmpty, "a flat low price crosses nothing")
            #expect(rig.engine.indicatorsSeeded, "the series was seeded from the exchange's candles")
            try await SimAdmin.post(rig.simulator, "/_sim/price?exchange=upbit", #"{"market":"KRW-BTC","price":\#(price * 1.2)}"#)
            try await expectEventually(timeout: .seconds(15), "the cross is read on a close") { !rig.fired.all.isEmpty }
            let firing = try #require(rig.fired.all.first)
            #expect(firing.rule == "indicator" && firing.message["en"]?.contains("1m MA 2 crossed above MA 3") == true, "\(firing)")
        }
    }

    /// A 체결강도 rule makes its market's 체결 carried with no page watching (the alerts' own watch
    /// on the depth feed), fires from the tape, and lets the market go when the rule goes.
    @Test func aStrengthLineReadsTheTapeItAsksFor() async throws {
        try await withRig { rig in
            #expect(try await DepthFeedTests.connections(rig.simulator, "upbit") == 0, "no rule, no page: no depth connection")
            // Any tape with buys and sells is at or above 1 %.
            try await rig.add(AlertRule(id: "strong", owner: "o", exchange: .upbit, market: MarketID("KRW-BTC")!, kind: .strengthAbove, value: 1))
            try await expectEventually(timeout: .seconds(20), "the tape is read") { !rig.fired.all.isEmpty }
            let firing = try #require(rig.fired.all.first)
            #expect(firing.rule == "strengthAbove" && (firing.observed ?? 0) > 1, "\(firing)")
            #expect(firing.message["ko"]?.contains("체결강도 1% 이상") == true, "\(firing.message)")
            // The one-shot rule left the book when it fired: its market is let go.
            try await expectEventually(timeout: .seconds(10), "the market let go") { !rig.feed.connected }
        }
    }
}
