import Foundation
import Synchronization

/// One browser connection's outbox. Messages merge while the socket is busy, so a slow client
/// holds at most one pending row per market and the newest order — never a growing queue.
final class BoardClient: Sendable {
    let deviceID: String
    private let state: Mutex<State>
    let doorbell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    struct State {
        var view: BoardClientView?
        /// A full snapshot to send before anything else (after a view change).
        var snapshot: String?
        var rows: [String: String] = [:]
        var order: [String]?
        var status: String?
        var heartbeat: Int64?
        var error: String?
    }

    init(deviceID: String, view: BoardClientView?) {
        self.deviceID = deviceID
        state = Mutex(State(view: view))
        (doorbell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    var view: BoardClientView? { state.withLock { $0.view } }

    func setView(_ view: BoardClientView, snapshot: String) {
        state.withLock { s in
            s = State(view: view, snapshot: snapshot)
        }
        ring.yield()
    }

    func updateFavorites(_ view: BoardClientView) {
        state.withLock { $0.view = view }
    }

    /// Merges a patch for this client's view: rows by market (newest wins), the latest order.
    func post(rows: [(String, String)], order: [String]?, status: String?) {
        state.withLock { s in
            for (code, fragment) in rows { s.rows[code] = fragment }
            if let order { s.order = order }
            if let status { s.status = status }
        }
        ring.yield()
    }

    func heartbeat(at ms: Int64) {
        state.withLock { $0.heartbeat = ms }
        ring.yield()
    }

    /// Tells the browser its last message was refused.
    func reject(_ error: APIError) {
        let text = "{\"type\":\"error\",\"code\":" + JSONText.quote(error.code) + ",\"message\":" + JSONText.quote(error.message) + "}"
        state.withLock { $0.error = text }
        ring.yield()
    }

    func close() { ring.finish() }

    var backlog: Int { state.withLock { $0.rows.count } }

    /// The messages to write now, in order.
    func drain() -> [String] {
        let s = state.withLock { s -> State in
            let copy = s
            s = State(view: s.view)
            return copy
        }
        var out: [String] = []
        if let error = s.error { out.append(error) }
        if let snapshot = s.snapshot { out.append(snapshot) }
        if let status = s.status { out.append(status) }
        if !s.rows.isEmpty || s.order != nil {
            var text = "{\"type\":\"patch\",\"rows\":["
            text += s.rows.values.joined(separator: ",")
            text += "]"
            if let order = s.order { text += ",\"order\":" + JSONText.encode(order) }
            out.append(text + "}")
        }
        if let heartbeat = s.heartbeat { out.append("{\"type\":\"heartbeat\",\"at\":\(heartbeat)}") }
        return out
    }
}
