import Synchronization

/// The `/ws` page objects alive right now, counted as they are made and freed: what a closed
/// page must give back (its outbox, its wire handler, its deflate stream and its view pacer).
/// With no page open every count is zero; anything else is a page held after it left. Served at
/// `/metrics` as `sise_ws_page_objects{kind}` so a leak shows in production too, not only in
/// the test that churns thousands of pages.
final class PageCensus: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        /// A page's outbox (`BoardClient`).
        case client
        /// The handler next to its socket (`PageWire`).
        case wire
        /// Its own deflate stream (`PageStream`; ≈160 KB of zlib state once it compressed).
        case stream
        /// Its view pacer (`ViewPacer`).
        case pacer
        /// The upgrade's request context (with the connection's channel), freed once the
        /// connection has closed (`WebSocketSlot`).
        case context
    }

    private let clients = Atomic<Int>(0)
    private let wires = Atomic<Int>(0)
    private let streams = Atomic<Int>(0)
    private let pacers = Atomic<Int>(0)
    private let contexts = Atomic<Int>(0)

    init() {}

    func made(_ kind: Kind) { with(kind) { _ = $0.add(1, ordering: .relaxed) } }
    func freed(_ kind: Kind) { with(kind) { _ = $0.subtract(1, ordering: .relaxed) } }

    func count(_ kind: Kind) -> Int { with(kind) { $0.load(ordering: .relaxed) } }

    private func with<T>(_ kind: Kind, _ body: (borrowing Atomic<Int>) -> T) -> T {
        switch kind {
        case .client: body(clients)
        case .wire: body(wires)
        case .stream: body(streams)
        case .pacer: body(pacers)
        case .context: body(contexts)
        }
    }
}
