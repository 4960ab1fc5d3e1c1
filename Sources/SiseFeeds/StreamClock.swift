import Foundation

/// The clock the stream's time rules run on (the silence watchdog, keep-alive pings). Live code
/// uses the continuous clock; tests inject one they advance by hand, so a rule about five
/// seconds is tested in milliseconds, deterministically.
public protocol StreamClock: Sendable {
    var now: ContinuousClock.Instant { get }
    func sleep(for duration: Duration) async throws
}

/// The real clock.
public struct SystemStreamClock: StreamClock {
    public init() {}
    public var now: ContinuousClock.Instant { ContinuousClock.now }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
