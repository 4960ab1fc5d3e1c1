/// Sise's one clock for durations: what time rules are measured and waited on (silence
/// watchdogs, keep-alive pings, retry pauses, cache freshness, frame pacing, polling). The time
/// of day is `WallClock`'s. Live code uses the continuous clock; tests inject one they advance by
/// hand (`ManualClock`, which moves both), so a rule about five seconds is tested in
/// milliseconds, deterministically, and a test never sleeps to prove that something does not happen.
public protocol MonotonicClock: Sendable {
    var now: ContinuousClock.Instant { get }
    func sleep(for duration: Duration) async throws
}

/// The real clock.
public struct SystemMonotonicClock: MonotonicClock {
    public init() {}
    public var now: ContinuousClock.Instant { ContinuousClock.now }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

extension MonotonicClock where Self == SystemMonotonicClock {
    /// The machine's continuous clock.
    public static var system: SystemMonotonicClock { SystemMonotonicClock() }
}
