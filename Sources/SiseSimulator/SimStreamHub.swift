import Foundation
import SiseCore
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

    /// Closes every open connection (only those with a book or tape subscription: `watchingDepth`).
    func dropAll(watchingDepth: Bool = false) {
        for state in connections.withLock({ Array($0.values) }) where !watchingDepth || !state.depthCodes.isEmpty { state.drop() }
    }

    /// `{"connections":N,"open":M,"markets":{"KRW-BTC":1,…}}`: the connections carrying a book or
    /// tape subscription, every open connection, and how many carry each market (a client's fan-in,
    /// seen from upstream).
    func depthJSON() -> String {
        let all = connections.withLock { $0.values.map(\.depthCodes) }
        let sets = all.filter { !$0.isEmpty }
        var markets: [String: Int] = [:]
        for codes in sets { for code in codes { markets[code, default: 0] += 1 } }
        var json = JSONWriter()
        json.beginObject()
        json.field("connections", int: Int64(sets.count))
        json.field("open", int: Int64(all.count))
        json.key("markets")
        json.beginObject()
        for (code, count) in markets.sorted(by: { $0.key < $1.key }) { json.field(code, int: Int64(count)) }
        json.endObject()
        json.endObject()
        return json.text
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
        var lastInbound: ContinuousClock.Instant
        /// Arrival times of request messages in the last minute (Upbit: ≤ 5/s and ≤ 100/min).
        var requests: [ContinuousClock.Instant] = []
    }

    static let requestsPerSecond = 5
    static let requestsPerMinute = 100

    private let clock: any MonotonicClock
    private let inbox: Mutex<Inbox>
    private let depth = Mutex<Set<String>>([])

    init(clock: any MonotonicClock) {
        self.clock = clock
        inbox = Mutex(Inbox(lastInbound: clock.now))
    }

    /// The markets whose book or tape this connection carries.
    var depthCodes: Set<String> {
        get { depth.withLock { $0 } }
        set { depth.withLock { $0 = newValue } }
    }

    func update(_ change: (inout Inbox) -> Void) { inbox.withLock { change(&$0) } }
    func drop() { inbox.withLock { $0.dropped = true } }

    /// Counts one message from the client; false when it is over Upbit's per-connection limits.
    func admitMessage() -> Bool {
        let now = clock.now
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
