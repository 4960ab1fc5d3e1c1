import Foundation
import SiseTestSupport
import Testing

@testable import SiseFeeds

/// The stream's interruptible sleep: the reconnect backoff and the resubscribe loop rest on it.
@Suite struct WakeupTests {
    @Test func aSignalCutsTheWaitShort() async throws {
        let wakeup = Wakeup()
        let started = ContinuousClock.now
        async let waited: Void = wakeup.wait(upTo: .seconds(10))
        try await expectEventually(timeout: .seconds(5), "the wait began") { wakeup.waiting == 1 }
        wakeup.signal()
        try await waited
        #expect(started.duration(to: .now) < .seconds(2))
    }

    @Test func aSignalWhileNobodyWaitsIsKeptForTheNextWait() async throws {
        let wakeup = Wakeup()
        wakeup.signal()
        let started = ContinuousClock.now
        try await wakeup.wait(upTo: .seconds(10))
        #expect(started.duration(to: .now) < .seconds(2))
        // Only one is kept: the next wait sleeps its full time.
        let again = ContinuousClock.now
        try await wakeup.wait(upTo: .milliseconds(200))
        #expect(again.duration(to: .now) >= .milliseconds(200))
    }

    /// Regression: a wait cancelled once (a session ending) used to finish the underlying
    /// stream, and from then on every wait returned at once — the reconnect backoff stopped
    /// waiting and the resubscribe loop sent subscribe after subscribe.
    @Test func aCancelledWaitLeavesLaterWaitsIntact() async throws {
        let wakeup = Wakeup()
        let task = Task { try await wakeup.wait(upTo: .seconds(3_600)) }
        try await expectEventually(timeout: .seconds(5), "the wait began") { wakeup.waiting == 1 }
        task.cancel()
        _ = await task.result
        for _ in 0..<3 {
            let started = ContinuousClock.now
            try await wakeup.wait(upTo: .milliseconds(150))
            #expect(started.duration(to: .now) >= .milliseconds(150))
        }
        let started = ContinuousClock.now
        async let waited: Void = wakeup.wait(upTo: .seconds(10))
        try await expectEventually(timeout: .seconds(5), "the wait began") { wakeup.waiting == 1 }
        wakeup.signal()
        try await waited
        #expect(started.duration(to: .now) < .seconds(2))
    }
}
