import Foundation
import SiseCore
import Synchronization

/// Keeps every request group under the exchange's limit (Upbit: 10 per second per group).
///
/// The exchange counts a request when it arrives, which is somewhere between our send and its
/// answer. So a request holds its slot while in flight and for a full window after its answer
/// came back: then no window the exchange can measure ever holds more than `limit` requests,
/// however late the network delivers them.
///
/// A 429 pauses the group for at least a second (or Retry-After); a 418 shuts the group until
/// the ban ends, and callers fail fast instead of retrying into it.
public actor RateLimiter {
    /// A granted slot; hand it back with `release` once the answer (or failure) is in.
    public struct Ticket: Sendable {
        let group: RateLimitGroup
        let id: UInt64
    }

    private struct Slot {
        let id: UInt64
        /// When the answer came back; nil while the request is in flight.
        var finished: ContinuousClock.Instant?
    }

    public let limit: Int
    public let window: Duration
    private let clock: any MonotonicClock
    private var slots: [RateLimitGroup: [Slot]] = [:]
    private var pausedUntil: [RateLimitGroup: ContinuousClock.Instant] = [:]
    private var blockedUntil: [RateLimitGroup: ContinuousClock.Instant] = [:]
    private var nextID: UInt64 = 0
    /// What went out per group and how the exchange pushed back (read by operators' metrics).
    private let counted = Mutex<[RateLimitGroup: UpstreamRequestCount]>([:])

    /// Requests sent, 429s and 418s per group since start.
    public nonisolated var requestCounts: [RateLimitGroup: UpstreamRequestCount] { counted.withLock { $0 } }

    /// - Parameters:
    ///   - limit: requests allowed per `window` per group.
    ///   - window: the exchange counts per second; a little slack keeps us off the boundary.
    ///   - clock: what windows are measured and waited on (a test's moves by hand).
    public init(limit: Int = 10, window: Duration = .milliseconds(1_020), clock: any MonotonicClock = .system) {
        self.limit = limit
        self.window = window
        self.clock = clock
    }

    /// Waits until `group` may send one more request and takes the slot.
    /// - Throws: `FeedError.blocked` while the group is banned; `CancellationError`.
    public func acquire(_ group: RateLimitGroup) async throws -> Ticket {
        while true {
            let current = clock.now
            if let until = blockedUntil[group], until > current {
                throw FeedError.blocked(retryAfter: current.duration(to: until))
            }
            switch decide(group, at: current) {
            case .granted(let ticket):
                return ticket
            case .wait(let duration):
                try await clock.sleep(for: duration)
            }
        }
    }

    /// The answer for `ticket` arrived (or the request failed): its window starts now.
    public func release(_ ticket: Ticket) {
        guard var list = slots[ticket.group], let index = list.firstIndex(where: { $0.id == ticket.id }) else { return }
        list[index].finished = clock.now
        slots[ticket.group] = list
    }

    /// The exchange said 429: pause the group.
    public func rateLimited(_ group: RateLimitGroup, retryAfter: Duration?) {
        counted.withLock { $0[group, default: .init()].rateLimited += 1 }
        pause(group, for: max(retryAfter ?? .seconds(1), .seconds(1)))
    }

    /// The exchange said 418: nothing goes to this group until the ban is over.
    public func blocked(_ group: RateLimitGroup, for ban: Duration) {
        counted.withLock { $0[group, default: .init()].blocked += 1 }
        blockedUntil[group] = clock.now.advanced(by: ban)
    }

    /// The exchange's `Remaining-Req` said no request is left this second: hold the group briefly.
    public func observe(_ remaining: RemainingRequests) {
        if remaining.perSecond <= 0 { pause(remaining.group, for: window) }
    }

    enum Decision: Equatable {
        case granted(Ticket)
        case wait(Duration)

        static func == (a: Decision, b: Decision) -> Bool {
            switch (a, b) {
            case (.granted(let x), .granted(let y)): x.id == y.id
            case (.wait(let x), .wait(let y)): x == y
            default: false
            }
        }
    }

    /// Grants a slot at `current`, or says how long to wait before asking again.
    func decide(_ group: RateLimitGroup, at current: ContinuousClock.Instant) -> Decision {
        if let until = pausedUntil[group], until > current { return .wait(current.duration(to: until)) }
        var list = slots[group, default: []]
        list.removeAll { slot in slot.finished.map { $0.advanced(by: window) <= current } ?? false }
        slots[group] = list
        guard list.count >= limit else {
            nextID += 1
            slots[group, default: []].append(Slot(id: nextID, finished: nil))
            return .granted(Ticket(group: group, id: nextID))
        }
        // Wake when the earliest finished slot leaves the window; poll while all are in flight.
        let expiries = list.compactMap { $0.finished?.advanced(by: window) }
        let wake = expiries.min().map { current.duration(to: $0) } ?? .milliseconds(20)
        return .wait(max(wake, .milliseconds(1)))
    }

    private func pause(_ group: RateLimitGroup, for duration: Duration) {
        let until = clock.now.advanced(by: duration)
        pausedUntil[group] = max(pausedUntil[group] ?? until, until)
    }
}

extension RateLimiter {
    /// One GET inside `group`'s limit: the slot is taken before and given back after, whatever
    /// the answer (or the failure).
    nonisolated func send(_ url: URL, in group: RateLimitGroup, over transport: any HTTPTransport) async throws -> HTTPResponseData {
        try await send(in: group, over: transport) { (url, []) }
    }

    /// The same for a GET made when its slot is granted (a signed call's token and nonce are
    /// fresh for every attempt).
    nonisolated func send(
        in group: RateLimitGroup,
        over transport: any HTTPTransport,
        _ request: () throws -> (URL, [(String, String)])
    ) async throws -> HTTPResponseData {
        let ticket = try await acquire(group)
        counted.withLock { $0[group, default: .init()].sent += 1 }
        do {
            let (url, headers) = try request()
            let response = try await transport.get(url, headers: headers)
            await release(ticket)
            return response
        } catch {
            await release(ticket)
            throw error
        }
    }
}

/// One request group's traffic: requests sent, and answers that were 429 (slow down) or 418 (banned).
public struct UpstreamRequestCount: Sendable, Equatable {
    public var sent = 0
    public var rateLimited = 0
    public var blocked = 0
    public init() {}
}
