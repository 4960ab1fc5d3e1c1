import Foundation

/// How long to wait before reconnect attempt `attempt` (0-based): exponential from `base`,
/// capped, with "equal jitter" (half fixed, half random) so many clients do not reconnect in
/// step. Pure, so it is tested without sockets.
public enum StreamBackoff {
    /// - Parameter jitter: a random fraction in 0...1.
    public static func delay(attempt: Int, base: Duration, cap: Duration, jitter: Double) -> Duration {
        let exponent = min(max(attempt, 0), 30)
        let grown = base * (1 << exponent)
        let ceiling = min(grown, cap)
        let fraction = 0.5 + 0.5 * min(max(jitter, 0), 1)
        return ceiling * fraction
    }
}

/// Never more than `limit` connection attempts in any `window` (Upbit: 5 per second).
public struct ConnectRateGate: Sendable {
    public let limit: Int
    public let window: Duration
    private var attempts: [ContinuousClock.Instant] = []

    public init(limit: Int = 5, window: Duration = .seconds(1)) {
        self.limit = limit
        self.window = window
    }

    /// How long to wait before the next attempt may start at `now` (zero when it may start now).
    public func wait(at now: ContinuousClock.Instant) -> Duration {
        let recent = attempts.filter { $0.advanced(by: window) > now }
        guard recent.count >= limit else { return .zero }
        return now.duration(to: recent[recent.count - limit].advanced(by: window))
    }

    /// Records an attempt that starts at `now`.
    public mutating func record(_ now: ContinuousClock.Instant) {
        attempts = attempts.filter { $0.advanced(by: window) > now } + [now]
    }
}
