import Foundation
import SiseCore

/// A sleep that can be cut short: `wait(upTo:)` returns early once `signal()` is called. A
/// signal that arrives while nobody waits is kept (one at most) for the next wait.
public final class Wakeup: Sendable {
    private let gate = SignalGate(consumes: true)

    public init() {}

    public func signal() { gate.set() }

    /// Tasks waiting now (tests wait for one before they signal).
    public var waiting: Int { gate.waiters }

    /// Waits for a signal; returns early (without one) when the task is cancelled.
    public func wait() async { await gate.wait() }

    /// Waits for `duration` or a signal, whichever comes first. Throws on cancellation.
    public func wait(upTo duration: Duration, on clock: any MonotonicClock = .system) async throws {
        try await gate.wait(upTo: duration, on: clock)
    }
}
