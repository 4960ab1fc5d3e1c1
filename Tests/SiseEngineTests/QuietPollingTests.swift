import Foundation
import SiseEngine
import SiseTestSupport
import Synchronization
import Testing

/// REST stands in while the stream is quiet, never while it delivers, and at once when it drops
/// (the rule the boards and the premium feed share).
@Suite struct QuietPollingTests {
    final class Feed: Sendable {
        let state = Mutex((quiet: true, steps: 0))
        var steps: Int { state.withLock { $0.steps } }
        func set(quiet: Bool) { state.withLock { $0.quiet = quiet } }
    }

    /// Moves the clock one step and returns once the loop has looked and waits again.
    static func step(_ clock: ManualClock, _ by: Duration) async throws {
        let before = clock.sleeps
        clock.advance(by: by)
        try await expectEventually(timeout: .seconds(5), "the loop looked") { clock.sleeps > before && clock.sleepers == 1 }
    }

    @Test func pollsWhileQuietParksWhileDeliveringAndWakesOnADrop() async throws {
        let clock = ManualClock()
        let polling = QuietPolling(interval: .milliseconds(40), clock: clock)
        let feed = Feed()
        let task = Task {
            await polling.run(
                quiet: { feed.state.withLock { $0.quiet } },
                step: {
                    feed.state.withLock { $0.steps += 1 }
                    return .zero
                }
            )
        }
        try await expectEventually(timeout: .seconds(5)) { clock.sleepers == 1 }
        for _ in 0..<3 { try await Self.step(clock, .milliseconds(40)) }
        #expect(feed.steps == 4, "one poll per interval while quiet")
        feed.set(quiet: false)
        try await Self.step(clock, .milliseconds(40))
        let parked = feed.steps
        // Ten intervals of a delivering stream, each looked at: nothing polled.
        for _ in 0..<10 { try await Self.step(clock, .milliseconds(40)) }
        #expect(feed.steps == parked, "no REST while the stream delivers")
        // A drop is taken at once, not after a long rest.
        let restClock = ManualClock()
        let longRest = QuietPolling(interval: .seconds(30), clock: restClock)
        let dropped = Feed()
        dropped.set(quiet: false)
        let second = Task {
            await longRest.run(
                quiet: { dropped.state.withLock { $0.quiet } },
                step: {
                    dropped.state.withLock { $0.steps += 1 }
                    return .zero
                }
            )
        }
        try await expectEventually(timeout: .seconds(5), "parked") { restClock.sleepers == 1 }
        #expect(dropped.steps == 0)
        dropped.set(quiet: true)
        longRest.streamDropped()
        try await expectEventually(timeout: .seconds(2), "the drop is polled at once, not 30 s later") { dropped.steps == 1 }
        task.cancel()
        await task.value
        second.cancel()
        await second.value
    }
}
