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

    @Test func pollsWhileQuietParksWhileDeliveringAndWakesOnADrop() async throws {
        let polling = QuietPolling(interval: .milliseconds(40))
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
        try await expectEventually(timeout: .seconds(5), "polls while quiet") { feed.steps >= 3 }
        feed.set(quiet: false)
        try await Task.sleep(for: .milliseconds(100))
        let parked = feed.steps
        // A deliberate negative wait: ten intervals of a delivering stream poll nothing.
        try await Task.sleep(for: .milliseconds(400))
        #expect(feed.steps == parked, "no REST while the stream delivers")
        // A drop is taken at once, not after a long rest.
        let longRest = QuietPolling(interval: .seconds(30))
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
        try await Task.sleep(for: .milliseconds(100))
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
