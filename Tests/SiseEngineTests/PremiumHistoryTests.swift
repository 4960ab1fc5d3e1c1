import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// The market's 김프 through the day: samples of the top-20 median, kept from 00:00 KST.
@Suite struct PremiumHistoryTests {
    @Test func samplesAreKeptFromMidnightInKorea() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let (feed, board, _) = SimulatedPremium.feed(simulator, fx: .upbitUSDT, transport: transport, withDunamu: false)
            let running = [ServiceTask(board), ServiceTask(feed)]
            board.viewerArrived()
            try await expectEventually(timeout: .seconds(15)) { board.hasData && feed.inputs.global["BTC"] != nil && feed.inputs.fx != nil }
            // 23:59 KST on one day, then 00:01 the next: the day starts over.
            let clock = Atomic<Int64>(1_795_000_000_000 - (1_795_000_000_000 + 9 * 3_600_000) % 86_400_000 + 86_400_000 - 60_000)
            let history = PremiumHistory(boards: ExchangeBoards(default: board), feed: feed, now: { clock.load(ordering: .relaxed) })
            history.sample()
            clock.add(30_000, ordering: .relaxed)
            history.sample()
            #expect(history.today(.upbit).count == 2)
            #expect(history.today(.upbit).allSatisfy { $0.value > 0 && $0.value < 0.05 }, "the simulation's premiums")
            clock.add(60_000, ordering: .relaxed)
            history.sample()
            #expect(history.today(.upbit).count == 1, "a new day in Korea")
            for task in running { await task.stop() }
            await transport.shutdown()
        }
    }
}
