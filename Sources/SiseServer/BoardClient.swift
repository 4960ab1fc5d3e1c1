import Foundation
import NIOCore
import SiseCore
import Synchronization

/// One browser connection's outbox. Messages merge while the socket is busy, so a slow client
/// holds at most one pending row per market and the newest order — never a growing queue.
///
/// What is pending is written straight to the page's channel on the channel's own event loop —
/// no task per connection to wake, no hop per message: the hub posts a batch to every client of
/// a view and then asks each event loop once to write to all of its pages (`PendingWrites`, and
/// `deliver` for the heartbeat to every page).
final class BoardClient: Sendable {
    // What a write reads first, declared first: the page, its loop, the flag and the outbox's lock
    // sit together at the object's start (a cache line, two at worst).
    private let page: PageSocket
    /// The page's event loop, kept beside the flag: pages are grouped by loop without fetching
    /// each page's channel.
    let loop: any EventLoop
    /// A write is already asked of the event loop (posts until then join it).
    private let scheduled = Atomic<Bool>(false)
    /// The page shows a window of ranks (`setWindow`), told without the window's lock.
    private let windowed = Atomic<Bool>(false)
    /// A write found the page's socket full since the last drain: what it missed goes merged.
    private let wasFull = Atomic<Bool>(false)
    private let state: Mutex<State>
    let deviceID: String

    struct State {
        /// The view's patch exactly as computed for every client of the view: sent as is when
        /// nothing else is pending (the common case), so most clients cost no encoding at all.
        var shared: SharedPatch?
        /// The view's patches that came while `shared` waited, oldest first (at most
        /// `SharedPatch.maxLater`; then `shared` and they are collapsed into one): sent after it (merged when the socket was full, `drain`),
        /// the merge made once for the view's pages.
        var later: [SharedPatch] = []
        /// A full snapshot to send before anything else (after a view change).
        var snapshot: PageMessage?
        var rows: [String: String] = [:]
        var order: BoardSocketMessage.Order?
        /// When the oldest of `rows` and `order` was published (epoch ms).
        var since: Int64?
        var status: String?
        var heartbeat: Int64?
        var error: String?
        /// The owner's favorites, when they changed (newest wins).
        var favorites: String?
        /// The owner's portfolio at live prices, when it changed (newest wins).
        var portfolio: String?
        /// Alerts that fired for the owner, oldest first (at most `maxNotices`).
        var notices: [String] = []
        /// The watched market's 호가 and 체결, when they changed (newest wins).
        var book: String?
        var trades: String?
        /// Last: a write that finds only `shared` pending reads none of it.
        var view: BoardClientView?

        init(view: BoardClientView?, snapshot: PageMessage? = nil) {
            self.view = view
            self.snapshot = snapshot
        }
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

    init(deviceID: String, view: BoardClientView?, page: PageSocket) {
        self.deviceID = deviceID
        state = Mutex(State(view: view))
        self.page = page
        loop = page.channel.eventLoop
        page.census.made(.client)
    }

    deinit { page.census.freed(.client) }

    var view: BoardClientView? { state.withLock { $0.view } }

    /// A new view starts the board's messages over; what belongs to the owner or to the market
    /// page (favorites, portfolio, fired alerts, 호가 and 체결) stays pending.
    func setView(_ view: BoardClientView, snapshot: PageMessage) {
        state.withLock { s in
            var fresh = State(view: view, snapshot: snapshot)
            fresh.favorites = s.favorites
            fresh.portfolio = s.portfolio
            fresh.notices = s.notices
            fresh.book = s.book
            fresh.trades = s.trades
            s = fresh
        }
        schedule()
    }

    /// Merges a patch for this client's view: rows by market (newest wins), the latest order.
    /// `shared` is the same patch already encoded for every client of the view. With `now`
    /// false the caller delivers (`BoardClient.deliver`) once it has posted to every client. `at`:
    /// when the hub published the patch (epoch ms).
    func post(rows: [(String, String)], order: BoardSocketMessage.Order?, status: String?, shared: PageMessage? = nil, at: Int64, now: Bool = true) {
        let merged = state.withLock { s -> Bool in
            if let status { s.status = status }
            guard !rows.isEmpty || order != nil else { return false }
            if let shared, s.rows.isEmpty, s.order == nil {
                let patch = SharedPatch(message: shared, rows: rows, order: order, at: at)
                guard let first = s.shared else {
                    s.shared = patch
                    return false
                }
                if s.later.count == SharedPatch.maxLater {
                    s.shared = SharedPatch.collapsed(first, s.later)
                    s.later = []
                }
                s.later.append(patch)
                return true
            }
            let unsent = s.shared != nil || !s.rows.isEmpty || s.order != nil
            s.absorbShared()
            for (code, fragment) in rows { s.rows[code] = fragment }
            if let order { s.order = order }
            s.since = min(s.since ?? at, at)
            return unsent
        }
        if merged { page.slowMerges.increment() }
        if now { schedule() }
    }

    func heartbeat(at ms: Int64, now: Bool = true) {
        state.withLock { $0.heartbeat = ms }
        if now { schedule() }
    }

    /// Tells the browser its last message was refused.
    /// The owner's favorites changed (on this page or another of the same account).
    func favoritesChanged(_ message: String) {
        state.withLock { $0.favorites = message }
        schedule()
    }

    /// The ranks this page shows (nil: all), and the rows it was last sent in full.
    private let windowState = Mutex<(range: Range<Int>?, shown: Set<String>)>((nil, []))
    var window: Range<Int>? { windowState.withLock { $0.range } }

    /// A new window (or none); what was sent stays known, so only rows entering it follow.
    func setWindow(_ range: Range<Int>?) {
        windowState.withLock { $0.range = range }
        windowed.store(range != nil, ordering: .releasing)
    }

    var hasWindow: Bool { windowed.load(ordering: .acquiring) }

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
        schedule()
    }

    /// The market whose 호가 and 체결 this page shows (nil: none), and what it was last sent of them.
    private let depthWatch = Mutex<(key: DepthPush.Key?, book: String?, trades: String?)>((nil, nil, nil))
    var watchedDepth: DepthPush.Key? { depthWatch.withLock { $0.key } }

    func watchDepth(_ key: DepthPush.Key?) {
        depthWatch.withLock { $0 = (key, nil, nil) }
        if key == nil {
            state.withLock {
                $0.book = nil
                $0.trades = nil
            }
        }
    }

    /// The watched market's book and tape now; only what differs from what the page last got is sent.
    func depth(_ key: DepthPush.Key, book: String?, trades: String?) {
        let fresh = depthWatch.withLock { watch -> (book: String?, trades: String?) in
            guard watch.key == key else { return (nil, nil) }
            let newBook = book.flatMap { $0 == watch.book ? nil : $0 }
            let newTrades = trades.flatMap { $0 == watch.trades ? nil : $0 }
            if let newBook { watch.book = newBook }
            if let newTrades { watch.trades = newTrades }
            return (newBook, newTrades)
        }
        guard fresh.book != nil || fresh.trades != nil else { return }
        state.withLock { s in
            if let book = fresh.book { s.book = book }
            if let trades = fresh.trades { s.trades = trades }
        }
        schedule()
    }

    static let maxNotices = 20

    /// An alert fired for the owner: queued (the oldest dropped beyond `maxNotices`).
    func notice(_ message: String) {
        state.withLock { s in
            s.notices.append(message)
            if s.notices.count > Self.maxNotices { s.notices.removeFirst(s.notices.count - Self.maxNotices) }
        }
        schedule()
    }

    func reject(_ error: APIError, _ language: Language) {
        let text = Self.errorMessage(error, language)
        state.withLock { $0.error = text }
        schedule()
    }

    /// `{"type":"error","code":…,"message":…}`
    static func errorMessage(_ error: APIError, _ language: Language) -> String {
        (try? BoardSocketMessage.encode(BoardSocketMessage.Failure(code: error.code, message: error.message(language))))
            ?? #"{"type":"error","code":"internal","message":"error"}"#
    }

    var backlog: Int { state.withLock { $0.backlog } }

    // MARK: - Writing

    /// Asks the page's event loop to write what is pending (once until it has).
    func schedule() {
        guard claimWrite() else { return }
        loop.execute { self.write(writable: self.page.writable) }
    }

    /// Takes the page's place in its loop's line of writes: false when it is already waiting
    /// there (its write will take what was posted since).
    func claimWrite() -> Bool {
        !scheduled.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Writes what is pending for each of `clients`, with one task per event loop for all of its
    /// pages (a batch for 10,000 pages costs a handful of tasks, not 10,000).
    static func deliver(_ clients: [BoardClient]) {
        var byLoop: [ObjectIdentifier: (loop: any EventLoop, clients: [BoardClient])] = [:]
        for client in clients where client.claimWrite() {
            byLoop[ObjectIdentifier(client.loop), default: (client.loop, [])].clients.append(client)
        }
        for (loop, batch) in byLoop.values {
            loop.execute { writeEach([batch], on: loop) }
        }
    }

    /// Pages written in one task of their event loop before it reads its sockets again
    /// (`LoopTurns`): ≈ 5 ms of writes.
    static let pagesPerTurn = 1_024
    /// How long the rest of a batch waits for its next turn: a task due at once would run in the
    /// same turn, before the loop looks at its sockets.
    static let turnGap = TimeAmount.microseconds(20)

    /// On their event loop: whatever is pending for each of `pages` (each has claimed its write,
    /// `claimWrite`), `pagesPerTurn` pages a turn, in the loop's one line (`LoopTurns`).
    static func writeEach(_ lists: [[BoardClient]], on loop: any EventLoop) {
        turns(on: loop).add(lists)
    }

    /// Each event loop's one line of turns (`LoopTurns`), made the first time it writes pages.
    private static let lines = Mutex<[ObjectIdentifier: LoopTurns<BoardClient>]>([:])

    private static func turns(on loop: any EventLoop) -> LoopTurns<BoardClient> {
        lines.withLock { lines in
            if let known = lines[ObjectIdentifier(loop)] { return known }
            let made = LoopTurns<BoardClient>(on: loop, perTurn: pagesPerTurn, gap: turnGap) { writeInGroups($0) }
            lines[ObjectIdentifier(loop)] = made
            return made
        }
    }

    /// Pages written per group in `writeInGroups(_:)`.
    static let writeGroup = 64

    /// On their event loop: each page's pending messages. Between two pages' writes the kernel's
    /// send has pushed the next page's objects out of the cache, and the chain that decides a
    /// write (client → page → wire) is three misses waited for one after the other. So, a group
    /// at a time, that chain is read first for all of the group — reads that do not depend on
    /// each other, which the processor overlaps — and then the group is written.
    private static func writeInGroups(_ batch: ArraySlice<BoardClient>) {
        var start = batch.startIndex
        while start < batch.endIndex {
            let end = min(start + writeGroup, batch.endIndex)
            var writable: UInt64 = 0
            for index in start..<end where batch[index].page.writable { writable |= 1 << UInt64(index - start) }
            for index in start..<end { batch[index].write(writable: writable & (1 << UInt64(index - start)) != 0) }
            start = end
        }
    }

    /// On the page's event loop: the pending messages, written and flushed once. A socket whose
    /// buffer is full is left alone — its posts keep merging — until it drains (`PageWire`
    /// schedules the write again). `writable`: the page's socket takes a write (read on this
    /// loop task: nothing between the read and the write changes it).
    private func write(writable: Bool) {
        scheduled.store(false, ordering: .releasing)
        guard writable else {
            wasFull.store(true, ordering: .relaxed)
            return
        }
        if let patch = takeSharedAlone() {
            page.send(patch)
            return
        }
        let messages = drain(merging: wasFull.exchange(false, ordering: .relaxed))
        guard !messages.isEmpty else { return }
        page.send(messages)
    }

    /// The common case, taken without copying the outbox or building a list: nothing is pending
    /// but the view's patch as every client of it got it.
    private func takeSharedAlone() -> PageMessage? {
        state.withLock { s -> PageMessage? in
            guard let shared = s.shared, s.later.isEmpty, s.rows.isEmpty, s.order == nil, s.snapshot == nil, s.status == nil, s.heartbeat == nil,
                s.error == nil, s.favorites == nil, s.portfolio == nil, s.notices.isEmpty, s.book == nil, s.trades == nil
            else { return nil }
            s.shared = nil
            return shared.message
        }
    }

    /// The messages to write now, in order. A shared patch is the very message every client of
    /// the view writes: its bytes (and their deflated form) are made once and sent by reference.
    ///
    /// The view's patches a page missed go as they are, one message each — written together, and
    /// the same messages the view's other pages got — when the page fell behind because the server
    /// had not come round to it (a batch for 19,800 pages outlasts the 100 ms between two). With
    /// `merging` (its socket was full: the page reads slowly) they go as one merged patch, the
    /// newest row of each market: fewer bytes for a page that cannot take them all.
    func drain(merging: Bool = true) -> [PageMessage] {
        let s = state.withLock { s -> State in
            let copy = s
            s = State(view: s.view)
            return copy
        }
        var out: [PageMessage] = []
        if let error = s.error { out.append(PageMessage(error)) }
        if let favorites = s.favorites { out.append(PageMessage(favorites)) }
        for notice in s.notices { out.append(PageMessage(notice)) }
        if let portfolio = s.portfolio { out.append(PageMessage(portfolio)) }
        if let book = s.book { out.append(PageMessage(book)) }
        if let trades = s.trades { out.append(PageMessage(trades)) }
        if let snapshot = s.snapshot { out.append(snapshot) }
        if let status = s.status { out.append(PageMessage(status)) }
        if let shared = s.shared {
            if merging {
                out.append(SharedPatch.combined(shared, s.later))
            } else {
                out.append(shared.message)
                for patch in s.later { out.append(patch.message) }
            }
        } else if let since = s.since, !s.rows.isEmpty || s.order != nil {
            out.append(PageMessage(BoardSocketMessage.patch(rows: Array(s.rows.values), order: s.order, at: since)))
        }
        if let heartbeat = s.heartbeat, let text = try? BoardSocketMessage.encode(BoardSocketMessage.Heartbeat(at: heartbeat)) {
            out.append(PageMessage(text))
        }
        return out
    }
}
