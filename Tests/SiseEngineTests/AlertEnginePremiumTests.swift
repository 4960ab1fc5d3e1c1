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
    @Test func aVenuesCellAndAHeldLine() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let (feed, board, _) = SimulatedPremium.feed(simulator, fx: .dunamu, transport: transport)
            let venues: [GlobalVenue] = [.okx, .bybit]
            let prices = GlobalPrices(
                apis: Dictionary(
                    uniqueKeysWithValues: venues.map { venue in
                        let spec = GlobalVenueRegistry.spec(venue)
                        return (venue, spec.api(spec.simulated(at: simulator.baseURL), transport: transport))
                    }
                ),
                binance: feed,
                clock: .system,
                logger: Logger(label: "test")
            )
            let store = AlertStore(database: try TestStores.sqlite())
            let clock = ManualClock(epoch: WallClock.system.now)
            let fired = Mutex<[AlertFiring]>([])
            let engine = AlertEngine(
                boards: ExchangeBoards(default: board),
                store: store,
                premium: feed,
                globalPrices: prices,
                clock: clock.wall,
                pace: clock,
                logger: Logger(label: "test")
            ) { firing in fired.withLock { $0.append(firing) } }
            let services = [ServiceTask(board), ServiceTask(feed), ServiceTask(prices), ServiceTask(engine)]
            try await expectEventually(timeout: .seconds(10)) { feed.status.decision.quote != nil && feed.binanceQuotes["BTC"] != nil }
            func rule(_ id: String, _ market: String, venue: GlobalVenue?, hold: Int? = nil) -> AlertRule {
                AlertRule(
                    id: id,
                    owner: "o",
                    exchange: .upbit,
                    market: MarketID(market)!,
                    kind: .premiumAbove,
                    value: -10,
                    venue: venue,
                    holdMinutes: hold
                )
            }
            // Always true where there is a figure: fires at the first reading of a live cell.
            for one in [
                rule("okx-btc", "KRW-BTC", venue: .okx), rule("okx-ada", "KRW-ADA", venue: .okx), rule("ada", "KRW-ADA", venue: nil),
                rule("held", "KRW-BTC", venue: nil, hold: 1),
            ] {
                try await store.add(one)
                await engine.upsert(one)
            }
            try await expectEventually(timeout: .seconds(15), "the OKX cell is read") {
                fired.withLock { $0.contains { $0.alertId == "okx-btc" } && $0.contains { $0.alertId == "ada" } }
            }
            let okx = try #require(fired.withLock { $0.first { $0.alertId == "okx-btc" } })
            #expect(okx.venue == "okx" && okx.message["en"]?.contains("against OKX") == true, "\(okx)")

            // The held line: quiet through 50 s of sweeps, fired past the minute.
            for _ in 0..<10 {
                let slept = clock.sleeps
                clock.advance(by: .seconds(5))
                try await expectEventually { clock.sleeps > slept }
            }
            #expect(!fired.withLock { $0.contains { $0.alertId == "held" } }, "held for 50 s is not held for a minute")
            for _ in 0..<4 {
                let slept = clock.sleeps
                clock.advance(by: .seconds(5))
                try await expectEventually { clock.sleeps > slept }
            }
            try await expectEventually(timeout: .seconds(5), "held past the minute") { fired.withLock { $0.contains { $0.alertId == "held" } } }
            let held = try #require(fired.withLock { $0.first { $0.alertId == "held" } })
            #expect(held.venue == "binance" && held.message["ko"]?.contains("1분 유지") == true, "\(held)")
            #expect(
                !fired.withLock { $0.contains { $0.alertId == "okx-ada" } },
                "OKX's ADA is another coin (Binance's is the coin): a doubt never fires"
            )
            #expect(try await store.history(owner: "o").count == 3, "each firing recorded once")
            for service in services.reversed() { await service.stop() }
            await transport.shutdown()
        }
    }
}
