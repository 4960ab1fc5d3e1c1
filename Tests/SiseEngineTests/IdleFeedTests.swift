import Foundation
import SiseCore
import SiseEngine
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// Idle feeds: with nobody watching for `idleAfter` the board closes its upstream stream and
/// says `idle`; the next viewer gets the last board at once (stale, with its age) and fresh data
/// within seconds. The grace period runs on an injected clock, so the test takes seconds.
@Suite(.serialized) struct IdleFeedTests {
    final class ManualClock: Sendable {
        private let offset = Mutex<Int64>(0)
        func advance(seconds: Int64) { offset.withLock { $0 += seconds * 1_000 } }
        var now: Int64 { Int64(Date().timeIntervalSince1970 * 1_000) + offset.withLock { $0 } }
    }

    @Test func nobodyWatchingClosesTheFeedAndTheNextViewerWakesIt() async throws {
        let clock = ManualClock()
        try await withSimulator { simulator in
            let h = LiveBoardHarness.start(simulator, idleAfter: .seconds(60), now: { clock.now })
            do {
                try await expectEventually(timeout: .seconds(10)) { h.state == .live }
                // Within the grace period nothing changes.
                clock.advance(seconds: 30)
                try await Task.sleep(for: .milliseconds(1_500))
                #expect(h.state == .live)
                // Past it, with no viewer: the feed closes.
                clock.advance(seconds: 31)
                try await expectEventually(timeout: .seconds(5)) { h.state == .idle }
                try await Task.sleep(for: .milliseconds(300))
                let frames = { try await SimAdmin.stats(simulator)["upbit"]?["websocket-frames"] ?? 0 }
                let quiet = try await frames()
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
                try await expectEventually(timeout: .seconds(5)) { h.state == .live }

                // An open viewer keeps it awake however long it stays.
                clock.advance(seconds: 600)
                try await Task.sleep(for: .milliseconds(1_500))
                #expect(h.state == .live)
                h.board.viewerLeft()
                clock.advance(seconds: 61)
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
