import Foundation
import Synchronization

/// The open WebSocket connections, so a fault can drop them all at once.
final class SimStreamHub: Sendable {
    private let connections = Mutex<[UInt64: SimStreamConnectionState]>([:])
    private let counter = Atomic<UInt64>(0)
    func register(_ state: SimStreamConnectionState) -> UInt64 {
        let id = counter.add(1, ordering: .relaxed).newValue
        connections.withLock { $0[id] = state }
        return id
    }

    func unregister(_ id: UInt64) {
        _ = connections.withLock { $0.removeValue(forKey: id) }
    }

    var count: Int { connections.withLock { $0.count } }

    /// Closes every open connection.
    func dropAll() {
        for state in connections.withLock({ Array($0.values) }) { state.drop() }
    }
}

/// What the reader half of a connection tells the sender half.
final class SimStreamConnectionState: Sendable {
    struct Inbox {
        var subscription: SimSubscription?
        var failure: SimSubscription.Failure?
        var statusPings = false
        var dropped = false
        var clientGone = false
        /// When the client last sent anything the handler sees (a request or a text `PING`).
        var lastInbound = ContinuousClock.now
        /// Arrival times of request messages in the last minute (Upbit: ≤ 5/s and ≤ 100/min).
        var requests: [ContinuousClock.Instant] = []
    }

    static let requestsPerSecond = 5
    static let requestsPerMinute = 100

    private let inbox = Mutex(Inbox())

    func update(_ change: (inout Inbox) -> Void) { inbox.withLock { change(&$0) } }
    func drop() { inbox.withLock { $0.dropped = true } }

    /// Counts one message from the client; false when it is over Upbit's per-connection limits.
    func admitMessage() -> Bool {
        let now = ContinuousClock.now
        return inbox.withLock { box in
            box.lastInbound = now
            box.requests.removeAll { $0.duration(to: now) >= .seconds(60) }
            let lastSecond = box.requests.count { $0.duration(to: now) < .seconds(1) }
            guard lastSecond < Self.requestsPerSecond, box.requests.count < Self.requestsPerMinute else { return false }
            box.requests.append(now)
            return true
        }
    }

    /// Takes a new subscription or failure, if one arrived.
    func take() -> Inbox {
        inbox.withLock { box in
            let copy = box
            box.subscription = nil
            box.failure = nil
            return copy
        }
    }
}
