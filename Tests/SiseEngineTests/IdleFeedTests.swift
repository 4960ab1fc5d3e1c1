import Foundation
import SiseCore
import SiseEngine
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Idle feeds: with nobody watching for `idleAfter` the board closes its upstream stream and
/// says `idle`; the next viewer gets the last board at once (stale, with its age) and fresh data
/// within seconds. The grace period runs on a clock the test moves by hand (the wall clock and the
/// idle rule's sleeps both), and the test waits for the rule to have looked, never for real time.
@Suite(.serialized) struct IdleFeedTests {
    /// Moves the clock and returns once the idle rule has woken, looked and gone back to sleep.
    static func advance(_ clock: ManualClock, seconds: Int64) async throws {
        let before = clock.sleeps
        clock.advance(by: .seconds(seconds))
        try await expectEventually(timeout: .seconds(5), "the idle rule looked") { clock.sleeps > before }
    }

    /// The ticker sockets open at the simulated exchange now.
    static func openSockets(_ simulator: RunningSimulator) async throws -> Int {
        let url = try #require(URL(string: simulator.baseURL.absoluteString + "/_sim/depth?exchange=upbit"))
        let (data, _) = try await URLSession.shared.data(from: url)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["open"] as? Int ?? -1
    }

    @Test func nobodyWatchingClosesTheFeedAndTheNextViewerWakesIt() async throws {
        let clock = ManualClock()
        try await withSimulator { simulator in
            let h = LiveBoardHarness.start(simulator, idleAfter: .seconds(60), now: clock.wall.milliseconds, clock: clock)
            do {
                try await expectEventually(timeout: .seconds(10)) { h.state == .live && clock.sleepers == 1 }
                // Within the grace period nothing changes.
                try await Self.advance(clock, seconds: 30)
                #expect(h.state == .live)
                // Past it, with no viewer: the feed closes.
                clock.advance(by: .seconds(31))
                try await expectEventually(timeout: .seconds(5)) { h.state == .idle }
                // No frame can flow while idle: the exchange sees no socket of ours open.
                try await expectEventually(timeout: .seconds(5), "the upstream socket is closed") {
                    try await Self.openSockets(simulator) == 0
                }
                let rows = h.board.snapshot.rows.count
                #expect(rows >= 240, "the last board stays for the next viewer")

                // A viewer arrives: fresh data within 2 s, then live again.
                let applied = await h.board.appliedTicks
                let woke = ContinuousClock.now
                h.board.viewerArrived()
                try await expectEventually(timeout: .seconds(2)) { await h.board.appliedTicks > applied }
                #expect(woke.duration(to: .now) <= .seconds(2))
                try await expectEventually(timeout: .seconds(5)) { h.state == .live && clock.sleepers == 1 }

                // An open viewer keeps it awake however long it stays.
                try await Self.advance(clock, seconds: 600)
                #expect(h.state == .live)
                h.board.viewerLeft()
                clock.advance(by: .seconds(61))
                try await expectEventually(timeout: .seconds(5)) { h.state == .idle }
                await h.stop()
            } catch {
                await h.stop()
                throw error
            }
        }
    }

    /// A board beside the default one starts idle: no REST call and no socket until its first
    /// viewer, then live within seconds.
    @Test func aBoardThatStartsIdleCostsNothingUntilItsFirstViewer() async throws {
        try await withSimulator { simulator in
            let h = LiveBoardHarness.start(simulator, idleAfter: .seconds(60), startsIdle: true)
            do {
                // Idle from its start: the feed loop parks before its first request (REST and the
                // stream both run only inside it), so nothing has been asked, nor will be.
                try await expectEventually(timeout: .seconds(5)) { h.state == .idle }
                #expect(try await Self.openSockets(simulator) == 0)
                #expect(await h.board.appliedTicks == 0)
                let stats = try await SimAdmin.stats(simulator)
                #expect(stats["upbit"]?["market"] == nil && stats["upbit"]?["websocket"] == nil, "nothing asked upstream: \(stats)")
                h.board.viewerArrived()
                try await expectEventually(timeout: .seconds(10)) { h.state == .live }
                #expect(h.board.snapshot.rows.count >= 240)
                // The coalescing loop, parked while idle, runs again: ticks reach subscribers.
                let told = Atomic<Int>(0)
                let following = Task {
                    for await update in h.board.updates() {
                        if case .changes(let rows) = update { told.add(rows.count, ordering: .relaxed) }
                    }
                }
                defer { following.cancel() }
                try await expectEventually(timeout: .seconds(3), "ticks reach subscribers") { told.load(ordering: .relaxed) > 0 }
                await h.stop()
            } catch {
                await h.stop()
                throw error
            }
        }
    }
}
