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

    /// On a driven clock: held 50 s is silent, held past the minute fires.
    @Test func aHeldLine() async throws {
        let clock = ManualClock(epoch: WallClock.system.now)
        try await withEngine(clock: clock.wall, pace: clock) { engine, store, fired in
            let held = rule("held", "KRW-BTC", venue: nil, hold: 1)
            try await store.add(held)
            await engine.upsert(held)
            func step(_ times: Int) async throws {
                for _ in 0..<times {
                    let (slept, asleep) = (clock.sleeps, clock.sleepers)
                    clock.advance(by: .seconds(5))
                    // Every loop it woke (the sweep and the tapes' reader) asleep again: the
                    // sweep has run, not only the quicker reader.
                    try await expectEventually { clock.sleeps > slept && clock.sleepers >= asleep }
                }
            }
            try await step(10)
            #expect(!fired.has("held"), "held for 50 s is not held for a minute")
            try await step(4)
            // A sweep finds the line held past the minute and fires it. Under a full run's load
            // a sweep may find the board not live for a moment: a few more steps give it more
            // sweeps (failed once in a full run: not fired 5 s after 70 s).
            var fires = try await waitUntil(timeout: .seconds(3)) { fired.has("held") }
            for _ in 0..<6 where !fires {
                try await step(1)
                fires = try await waitUntil(timeout: .seconds(3)) { fired.has("held") }
            }
            #expect(fires, "held past the minute")
            let firing = try #require(fired.first("held"))
            #expect(firing.venue == "binance" && firing.message["ko"]?.contains("1분 유지") == true, "\(firing)")
        }
    }
}
