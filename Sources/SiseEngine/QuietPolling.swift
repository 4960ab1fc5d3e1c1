import SiseCore
import SiseFeeds

/// The one rule for REST standing in for a stream (the boards, the premium's Binance prices):
/// while the stream is quiet, `step` runs at most once per `interval` (longer when it asks, as
/// after a 429); while the stream delivers, nothing is polled: the loop parks until
/// `streamDropped()` — so REST takes over the moment a stream drops, not an interval later — and
/// looks again every `interval` (a quiet that comes with the clock, not an event, is seen too).
public struct QuietPolling: Sendable {
    public let interval: Duration
    private let wakeup = Wakeup()
    private let clock: any MonotonicClock

    public init(interval: Duration, clock: any MonotonicClock = .system) {
        self.interval = interval
        self.clock = clock
    }

    /// The stream stopped delivering: poll now.
    public func streamDropped() { wakeup.signal() }

    /// Runs until cancelled, in the caller's isolation (an actor's state may be read directly).
    /// - Parameters:
    ///   - quiet: whether REST must stand in now.
    ///   - step: one poll; returns how long to wait beyond `interval` (zero as a rule).
    public func run(isolation: isolated (any Actor)? = #isolation, quiet: () -> Bool, step: () async -> Duration) async {
        while !Task.isCancelled {
            do {
                if quiet() {
                    let extra = await step()
                    try await clock.sleep(for: max(interval, extra))
                } else {
                    try await wakeup.wait(upTo: interval, on: clock)
                }
            } catch { return }
        }
    }
}
