import Foundation
import NIOCore
import SiseCore
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
        /// The owner's favorites, when they changed (newest wins).
        var favorites: String?
        /// The owner's portfolio at live prices, when it changed (newest wins).
        var portfolio: String?
        /// Alerts that fired for the owner, oldest first (at most `maxNotices`).
        var notices: [String] = []
        /// The view's patch exactly as computed for every client of the view: sent as is when
        /// nothing else is pending (the common case), so most clients cost no encoding at all.
        var shared: (bytes: ByteBuffer, rows: [(String, String)], order: [String]?)?
    }

    /// The exchange whose board this client counts as a viewer of.
    private let watched = Mutex<Exchange>(.default)
    var watching: Exchange { watched.withLock { $0 } }

    /// Now watching `exchange`; returns what it watched before.
    func watch(_ exchange: Exchange) -> Exchange {
        watched.withLock { current in
            defer { current = exchange }
            return current
        }
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

    /// Merges a patch for this client's view: rows by market (newest wins), the latest order.
    /// `shared` is the same patch already encoded for every client of the view.
    func post(rows: [(String, String)], order: [String]?, status: String?, shared: ByteBuffer? = nil) {
        state.withLock { s in
            if let status { s.status = status }
            guard !rows.isEmpty || order != nil else { return }
            if let shared, s.rows.isEmpty, s.order == nil, s.shared == nil {
                s.shared = (shared, rows, order)
                return
            }
            if let previous = s.shared {
                for (code, fragment) in previous.rows { s.rows[code] = fragment }
                if let order = previous.order { s.order = order }
                s.shared = nil
            }
            for (code, fragment) in rows { s.rows[code] = fragment }
            if let order { s.order = order }
        }
        ring.yield()
    }

    func heartbeat(at ms: Int64) {
        state.withLock { $0.heartbeat = ms }
        ring.yield()
    }

    /// Tells the browser its last message was refused.
    /// The owner's favorites changed (on this page or another of the same account).
    func favoritesChanged(_ message: String) {
        state.withLock { $0.favorites = message }
        ring.yield()
    }

    /// The ranks this page shows (nil: all), and the rows it was last sent in full.
    private let windowState = Mutex<(range: Range<Int>?, shown: Set<String>)>((nil, []))
    var window: Range<Int>? { windowState.withLock { $0.range } }

    /// A new window (or none); what was sent stays known, so only rows entering it follow.
    func setWindow(_ range: Range<Int>?) {
        windowState.withLock { $0.range = range }
    }

    /// The rows of `ordered` in this page's window that it has not been sent yet (all of them
    /// after `reset`), remembered as sent.
    func entering(_ ordered: [String], reset: Bool = false) -> (inWindow: Set<String>, new: [String]) {
        windowState.withLock { state in
            guard let range = state.range else { return (Set(ordered), []) }
            let clamped = range.clamped(to: 0..<ordered.count)
            let codes = Array(ordered[clamped])
            let inWindow = Set(codes)
            let new = reset ? codes : codes.filter { !state.shown.contains($0) }
            state.shown = reset ? inWindow : state.shown.intersection(inWindow).union(new)
            return (inWindow, new)
        }
    }

    /// Whether this page shows the portfolio (and wants its live P&L).
    private let portfolioWatch = Mutex<(on: Bool, last: String?)>((false, nil))
    var watchesPortfolio: Bool { portfolioWatch.withLock { $0.on } }

    func watchPortfolio(_ on: Bool) {
        portfolioWatch.withLock { $0 = (on, nil) }
    }

    /// The owner's portfolio now; sent only when it differs from what this page last got.
    func portfolio(_ message: String) {
        let fresh = portfolioWatch.withLock { watch -> Bool in
            guard watch.on, watch.last != message else { return false }
            watch.last = message
            return true
        }
        guard fresh else { return }
        state.withLock { $0.portfolio = message }
        ring.yield()
    }

    static let maxNotices = 20

    /// An alert fired for the owner: queued (the oldest dropped beyond `maxNotices`).
    func notice(_ message: String) {
        state.withLock { s in
            s.notices.append(message)
            if s.notices.count > Self.maxNotices { s.notices.removeFirst(s.notices.count - Self.maxNotices) }
        }
        ring.yield()
    }

    func reject(_ error: APIError) {
        let text = Self.errorMessage(error)
        state.withLock { $0.error = text }
        ring.yield()
    }

    /// `{"type":"error","code":…,"message":…}`
    static func errorMessage(_ error: APIError) -> String {
        (try? BoardSocketMessage.encode(BoardSocketMessage.Failure(code: error.code, message: error.message)))
            ?? #"{"type":"error","code":"internal","message":"error"}"#
    }

    func close() { ring.finish() }

    var backlog: Int { state.withLock { $0.rows.count + ($0.shared?.rows.count ?? 0) } }


    /// The messages to write now, in order. A shared patch is the very buffer every client of the
    /// view writes: NIO sends it without copying it per socket.
    func drain() -> [ByteBuffer] {
        let s = state.withLock { s -> State in
            let copy = s
            s = State(view: s.view)
            return copy
        }
        var out: [ByteBuffer] = []
        if let error = s.error { out.append(ByteBuffer(string: error)) }
        if let favorites = s.favorites { out.append(ByteBuffer(string: favorites)) }
        for notice in s.notices { out.append(ByteBuffer(string: notice)) }
        if let portfolio = s.portfolio { out.append(ByteBuffer(string: portfolio)) }
        if let snapshot = s.snapshot { out.append(ByteBuffer(string: snapshot)) }
        if let status = s.status { out.append(ByteBuffer(string: status)) }
        if let shared = s.shared {
            out.append(shared.bytes)
        } else if !s.rows.isEmpty || s.order != nil {
            out.append(ByteBuffer(string: BoardSocketMessage.patch(rows: Array(s.rows.values), order: s.order)))
        }
        if let heartbeat = s.heartbeat, let text = try? BoardSocketMessage.encode(BoardSocketMessage.Heartbeat(at: heartbeat)) {
            out.append(ByteBuffer(string: text))
        }
        return out
    }
}
