import Foundation
import SiseCore
import SiseEngine
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// Idle feeds: with nobody watching for `idleAfter` the board closes its upstream stream and
/// says `idle`; the next viewer gets the last board at once (stale, with its age) and fresh data
/// within seconds. The grace period runs on a clock the test moves by hand (the wall clock and the
/// idle rule's sleeps both), and the test waits for the rule to have looked, never for real time.
@Suite(.serialized) struct IdleFeedTests {
    /// The wall clock the board reads, moved with the manual clock.
    static func wall(_ clock: ManualClock) -> @Sendable () -> Int64 {
        let start = WallClock.system.now
        return { start + clock.elapsed.components.seconds * 1_000 + clock.elapsed.components.attoseconds / 1_000_000_000_000_000 }
    }

    /// Moves the clock and returns once the idle rule has woken, looked and gone back to sleep.
    static func advance(_ clock: ManualClock, seconds: Int64) async throws {
        let before = clock.sleeps
        clock.advance(by: .seconds(seconds))
        try await expectEventually(timeout: .seconds(5), "the idle rule looked") { clock.sleeps > before }
    }

    @Test func nobodyWatchingClosesTheFeedAndTheNextViewerWakesIt() async throws {
        let clock = ManualClock()
        try await withSimulator { simulator in
            let h = LiveBoardHarness.start(simulator, idleAfter: .seconds(60), now: Self.wall(clock), clock: clock)
            do {
                try await expectEventually(timeout: .seconds(10)) { h.state == .live && clock.sleepers == 1 }
                // Within the grace period nothing changes.
                try await Self.advance(clock, seconds: 30)
                #expect(h.state == .live)
                // Past it, with no viewer: the feed closes.
                clock.advance(by: .seconds(31))
                try await expectEventually(timeout: .seconds(5)) { h.state == .idle }
                let frames = { try await SimAdmin.stats(simulator)["upbit"]?["websocket-frames"] ?? 0 }
                // A deliberate wait: frames already in flight when the feed parked land first.
                try await Task.sleep(for: .milliseconds(300))
                let quiet = try await frames()
                // A deliberate negative wait: a second of a parked feed brings no frame.
                try await Task.sleep(for: .seconds(1))
                #expect(try await frames() == quiet, "no frames flow while idle")
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
                try await expectEventually(timeout: .seconds(5)) { h.state == .idle }
                try await Task.sleep(for: .milliseconds(1_000))
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
