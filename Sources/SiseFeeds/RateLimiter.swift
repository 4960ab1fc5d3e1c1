import Foundation

/// Keeps every request group under the exchange's limit (Upbit: 10 per second per group).
///
/// A caller reserves a slot before sending, so concurrent callers queue instead of bursting.
/// A 429 pauses the group for at least a second (or Retry-After); a 418 shuts the group until
/// the ban ends, and callers fail fast instead of retrying into it.
public actor RateLimiter {
    public let limit: Int
    public let window: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private var granted: [String: [ContinuousClock.Instant]] = [:]
    private var pausedUntil: [String: ContinuousClock.Instant] = [:]
    private var blockedUntil: [String: ContinuousClock.Instant] = [:]

    /// - Parameters:
    ///   - limit: requests allowed per `window` per group.
    ///   - window: the exchange counts per second; a little slack keeps us off the boundary.
    ///   - now: the clock, injectable so the arithmetic can be tested without waiting.
    public init(limit: Int = 10, window: Duration = .milliseconds(1_050),
                now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.limit = limit
        self.window = window
        self.now = now
    }

    /// Waits until `group` may send one more request, then records it.
    /// - Throws: `FeedError.blocked` while the group is banned; `CancellationError`.
    public func acquire(_ group: String) async throws {
        if let until = blockedUntil[group], until > now() {
            throw FeedError.blocked(retryAfter: now().duration(to: until))
        }
        let slot = reserve(group)
        let wait = now().duration(to: slot)
        if wait > .zero { try await Task.sleep(for: wait) }
    }

    /// The exchange said 429: pause the group.
    public func rateLimited(_ group: String, retryAfter: Duration?) {
        let pause = max(retryAfter ?? .seconds(1), .seconds(1))
        let until = now().advanced(by: pause)
        pausedUntil[group] = max(pausedUntil[group] ?? until, until)
    }

    /// The exchange said 418: nothing goes to this group until the ban is over.
    public func blocked(_ group: String, for ban: Duration) {
        blockedUntil[group] = now().advanced(by: ban)
    }

    /// The exchange's `Remaining-Req` said no request is left this second: hold the group briefly.
    public func observe(_ remaining: RemainingRequests) {
        guard remaining.perSecond <= 0 else { return }
        let until = now().advanced(by: window)
        pausedUntil[remaining.group] = max(pausedUntil[remaining.group] ?? until, until)
    }

    /// The instant the next request of `group` may go out; records it as taken.
    private func reserve(_ group: String) -> ContinuousClock.Instant {
        let current = now()
        var times = granted[group, default: []].filter { $0.advanced(by: window) > current }
        var slot = max(current, pausedUntil[group] ?? current)
        if times.count >= limit {
            // The (limit)th most recent grant must have left the window before this one goes.
            slot = max(slot, times[times.count - limit].advanced(by: window))
        }
        times.append(slot)
        times.sort()
        granted[group] = times
        return slot
    }
}
