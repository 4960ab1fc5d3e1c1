import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseStore
import SiseTestSupport
import Testing

/// The recorder against the simulator: one minute's samples of every live matrix cell and every
/// exchange's 테더 김프 into the store, read over REST where no board is watched; the same minute
/// twice is written once.
@Suite(.serialized) struct PremiumRecorderTests {
    @Test func aMinuteOfEveryPremium() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let (feed, board, _) = SimulatedPremium.feed(simulator, fx: .dunamu, transport: transport)
            let running = ServiceTask(feed)
            try await expectEventually(timeout: .seconds(10)) { feed.status.decision.quote != nil && feed.binanceQuotes["BTC"] != nil }
            let apis = Dictionary(
                uniqueKeysWithValues: ExchangeRegistry.all.map { ($0.exchange, $0.api($0.simulated(at: simulator.baseURL), transport: transport)) }
            )
            let venues = Dictionary(
                uniqueKeysWithValues: GlobalVenueRegistry.all.map { ($0.venue, $0.api($0.simulated(at: simulator.baseURL), transport: transport)) }
            )
            let store = PremiumHistoryStore(database: try TestStores.sqlite())
            let clock = WallClock.system
            let recorder = PremiumRecorder(
                boards: ExchangeBoards(default: board),
                apis: apis,
                venues: venues,
                feed: feed,
                store: store,
                clock: clock,
                logger: Logger(label: "test")
            )
            let started = clock.now
            let written = await recorder.sample()
            #expect(written > 300, "every exchange × venue × coin with a live cell: \(written)")
            let now = clock.now
            for venue in GlobalVenue.allCases {
                let points = try await store.points(
                    PremiumSeries(exchange: .bithumb, symbol: "BTC", venue: venue),
                    resolution: .minute,
                    from: now - 120_000,
                    to: now
                )
                #expect(points.count == 1 && abs(points[0].value) < 0.06, "\(venue): \(points)")
            }
            let tether = try await store.points(.tether(.upbit), resolution: .minute, from: now - 120_000, to: now)
            #expect(tether.count == 1)
            let ada = try await store.points(
                PremiumSeries(exchange: .upbit, symbol: "ADA", venue: .okx),
                resolution: .minute,
                from: now - 120_000,
                to: now
            )
            #expect(ada.isEmpty, "another coin under OKX's ADA is never recorded")
            // The same minute again (another replica, or a restart inside it): not written twice.
            // Judged only when both samples fell inside one minute (the clock read before the
            // first and after the second): a minute that turned between them may rightly write.
            let again = await recorder.sample()
            if started / 60_000 == clock.now / 60_000 { #expect(again == 0) }
            await running.stop()
            await transport.shutdown()
        }
    }
}
