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

/// Premium rules through the engine against the simulator: a rule on an OKX cell reads the
/// matrix's cell (and never fires on a coin the matrix doubts), and a line held for a minute fires
/// from the engine's sweep once the minute has passed on a driven clock — not before.
@Suite(.serialized) struct AlertEnginePremiumTests {
    /// The firings delivered, as they come.
    final class Firings: Sendable {
        private let list = Mutex<[AlertFiring]>([])
        func add(_ firing: AlertFiring) { list.withLock { $0.append(firing) } }
        func first(_ id: String) -> AlertFiring? { list.withLock { $0.first { $0.alertId == id } } }
        func has(_ id: String) -> Bool { first(id) != nil }
    }

    /// The engine over the simulator's Upbit board, Binance feed and OKX/Bybit pollers, its firings
    /// collected; `clock`/`pace`: the engine's wall clock and the one its sweep sleeps on.
    func withEngine(
        clock: WallClock,
        pace: any MonotonicClock,
        _ body: @Sendable (AlertEngine, AlertStore, Firings) async throws -> Void
    ) async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let (feed, board, _) = SimulatedPremium.feed(simulator, fx: .dunamu, transport: transport)
            let prices = GlobalPrices(
                apis: Dictionary(
                    uniqueKeysWithValues: [GlobalVenue.okx, .bybit].map { venue in
                        let spec = GlobalVenueRegistry.spec(venue)
                        return (venue, spec.api(spec.simulated(at: simulator.baseURL), transport: transport))
                    }
                ),
                binance: feed,
                clock: .system,
                logger: Logger(label: "test")
            )
            let store = AlertStore(database: try TestStores.sqlite())
            let fired = Firings()
            let engine = AlertEngine(
                boards: ExchangeBoards(default: board),
                store: store,
                premium: feed,
                globalPrices: prices,
                clock: clock,
                pace: pace,
                logger: Logger(label: "test")
            ) { firing in fired.add(firing) }
            let services = [ServiceTask(board), ServiceTask(feed), ServiceTask(prices), ServiceTask(engine)]
            // Every input of BTC's premium in hand before a rule is set — the board's row too: a
            // row that came late under load started a held line's minute late, and the line held
            // "past the minute" on the driven clock had not yet (failed once in a full run).
            let btc = MarketID("KRW-BTC")
            try await expectEventually(timeout: .seconds(30)) {
                feed.status.decision.quote != nil && feed.binanceQuotes["BTC"] != nil && btc.flatMap { board.snapshot.rows[$0] } != nil
            }
            try await body(engine, store, fired)
            for service in services.reversed() { await service.stop() }
            await transport.shutdown()
        }
    }

    func rule(_ id: String, _ market: String, venue: GlobalVenue?, hold: Int? = nil) -> AlertRule {
        // Always true where there is a figure: fires at the first reading of a live cell.
        AlertRule(id: id, owner: "o", exchange: .upbit, market: MarketID(market)!, kind: .premiumAbove, value: -10, venue: venue, holdMinutes: hold)
    }

    /// On the real clock (a cell's legs are judged fresh against the time of day).
    @Test func aVenuesCellAndADoubt() async throws {
        try await withEngine(clock: .system, pace: .system) { engine, store, fired in
            for one in [rule("okx-btc", "KRW-BTC", venue: .okx), rule("okx-ada", "KRW-ADA", venue: .okx), rule("ada", "KRW-ADA", venue: nil)] {
                try await store.add(one)
                await engine.upsert(one)
            }
            try await expectEventually(timeout: .seconds(15), "the OKX cell is read") {
                fired.has("okx-btc") && fired.has("ada")
            }
            let okx = try #require(fired.first("okx-btc"))
            #expect(okx.venue == "okx" && okx.message["en"]?.contains("against OKX") == true, "\(okx)")
            // Two more rules, each evaluated at once against the live cells as it is set: BTC's on
            // OKX fires (the cells are live now), ADA's on OKX does not — a doubt never fires.
            for one in [rule("okx-btc-again", "KRW-BTC", venue: .okx), rule("okx-ada-again", "KRW-ADA", venue: .okx)] {
                try await store.add(one)
                await engine.upsert(one)
            }
            #expect(fired.has("okx-btc-again"), "the OKX cells are live")
            #expect(!fired.has("okx-ada") && !fired.has("okx-ada-again"), "OKX's ADA is another coin (Binance's is the coin): a doubt never fires")
            #expect(try await store.history(owner: "o").count == 3, "each firing recorded once")
        }
    }

    /// On a driven clock: held 50 s is silent, held past the minute fires. Each step moves the
    /// clock one sweep and waits for that sweep to finish (its firings are delivered before it
    /// counts). The race it had: the line's inputs (the simulator's board and Binance prices) are
    /// judged live on the real clock, and under a full run's load a sweep could find no figure;
    /// the test then waited a few seconds and stepped again "for luck". Now a step says whether
    /// its sweep read the line, and the claim is exact: no sweep before the minute fired it, and
    /// the first sweep past the minute that read it did.
    @Test func aHeldLine() async throws {
        let clock = ManualClock(epoch: WallClock.system.now)
        try await withEngine(clock: clock.wall, pace: clock) { engine, store, fired in
            let held = rule("held", "KRW-BTC", venue: nil, hold: 1)
            try await store.add(held)
            await engine.upsert(held)
            let start = clock.elapsed
            /// One sweep's worth of time; whether that sweep had the line's figure. It waits for the
            /// sweep to count and for every loop it woke to be asleep again (the sweep counts just
            /// before it sleeps: a clock moved in between would not wake it).
            func step() async throws -> Bool {
                let (before, asleep) = (engine.sweeps, clock.sleepers)
                clock.advance(by: .seconds(5))
                try await expectEventually(timeout: .seconds(20), "the sweep ran") { engine.sweeps.done > before.done && clock.sleepers >= asleep }
                return engine.sweeps.readings > before.readings
            }
            // The line holds from its first reading (at the rule's upsert, or the first sweep that
            // read it): it may not fire before a minute from the start, and must by the first
            // sweep that reads it a minute after its first reading.
            var firstRead: Duration?
            while !fired.has("held"), clock.elapsed - start < .seconds(300) {
                let read = try await step()
                let now = clock.elapsed - start
                if read, firstRead == nil { firstRead = now }
                if fired.has("held") {
                    #expect(now >= .seconds(60), "held for \(now) is not held for a minute")
                } else if read, let firstRead {
                    #expect(now < firstRead + .seconds(60), "read at \(now), held since \(firstRead) or before, and not fired")
                }
            }
            #expect(firstRead != nil, "no sweep read the line: nothing was tested")
            let firing = try #require(fired.first("held"), "held past the minute")
            #expect(firing.venue == "binance" && firing.message["ko"]?.contains("1분 유지") == true, "\(firing)")
        }
    }
}
