import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import Synchronization

/// The 호가 and 체결 of the markets someone watches on one exchange, live from the exchange's
/// WebSocket — one connection of its own beside the board's ticker stream, so what is watched
/// changes without reconnecting the board. The connection is open only while something is
/// watched; a new list is re-sent whole, at most twice a second (Upbit allows 5 requests a second
/// on a connection), however often it changes. A book that is not consistent (crossed, unsorted,
/// a negative size) or a frame that is not what it says is dropped and counted, never kept;
/// trades are kept once each by their identity, newest first, `TradeTape.limit` at most.
public final class DepthFeed: Service, Sendable {
    /// A market's book or tape and when it last changed here.
    public struct Reading<Value: Sendable>: Sendable {
        public let value: Value
        public let received: ContinuousClock.Instant
    }

    private struct State {
        /// What each watcher asks for (the pages, the alerts, the executable premium); the
        /// connection carries their union.
        var wanted: [String: Set<MarketID>] = [:]
        var watched: Set<MarketID> = []
        var books: [MarketID: Reading<Orderbook>] = [:]
        var tapes: [MarketID: Reading<[Trade]>] = [:]
        var lastRequest: ContinuousClock.Instant?
        var pending = false
        var connected = false
        var subscriptions = 0
    }

    public let exchange: Exchange
    private let stream: TickerStream
    private let state = Mutex(State())
    private let changed = Wakeup()
    /// Told the reason of every book or frame dropped (`crossed`, `malformed` …).
    private let dropReport = Mutex<@Sendable (String) -> Void>({ _ in })
    private let logger: Logger
    /// The list is re-sent at most this often.
    static let requestSpacing = Duration.milliseconds(500)

    public init(exchange: Exchange, stream: TickerStream, logger: Logger) {
        self.exchange = exchange
        self.stream = stream
        self.logger = logger
    }

    /// Where drops are counted (the server's metrics), from now on.
    public func reportDrops(to report: @escaping @Sendable (String) -> Void) { dropReport.withLock { $0 = report } }

    private func dropped(_ reason: String) { dropReport.withLock { $0 }(reason) }

    /// Whether the connection is open now.
    public var connected: Bool { state.withLock { $0.connected } }
    /// Subscription requests sent so far (a benchmark and a test read it).
    public var subscriptionRequests: Int { state.withLock { $0.subscriptions } }

    /// The markets `watcher` wants carried from now on (its whole list; the connection carries
    /// every watcher's). Opens the connection when the first is asked for, closes it when none is
    /// left; a changed list is sent at once or, within half a second of the last request, by a
    /// later call (callers ask every round).
    public func watch(_ wanted: Set<MarketID>, by watcher: String = "pages", now: ContinuousClock.Instant = .now) {
        let (wake, resend) = state.withLock { s -> (Bool, Bool) in
            s.wanted[watcher] = wanted.isEmpty ? nil : wanted
            let markets = s.wanted.values.reduce(into: Set<MarketID>()) { $0.formUnion($1) }
            let opening = s.watched.isEmpty != markets.isEmpty
            if markets != s.watched {
                s.pending = true
                s.watched = markets
                s.books = s.books.filter { markets.contains($0.key) }
                s.tapes = s.tapes.filter { markets.contains($0.key) }
            }
            guard s.pending, !markets.isEmpty, s.lastRequest.map({ $0.duration(to: now) >= Self.requestSpacing }) ?? true else {
                return (opening, false)
            }
            s.pending = false
            s.lastRequest = now
            return (opening, !opening)
        }
        if wake { changed.signal() }
        if resend { stream.resubscribe() }
    }

    /// The market's book as last received, if the connection has brought one.
    public func book(_ market: MarketID) -> Reading<Orderbook>? { state.withLock { $0.books[market] } }

    /// The market's book if the connection brought one within `silence` (else the caller reads
    /// it over REST, and says it is delayed where that matters).
    public func freshBook(_ market: MarketID, within silence: Duration, now: ContinuousClock.Instant = .now) -> Orderbook? {
        freshReading(market, within: silence, now: now)?.value
    }

    /// `freshBook` with when it was received.
    public func freshReading(_ market: MarketID, within silence: Duration, now: ContinuousClock.Instant = .now) -> Reading<Orderbook>? {
        book(market).flatMap { $0.received.duration(to: now) < silence ? $0 : nil }
    }

    /// The market's tape (newest first) as last received or seeded.
    public func tape(_ market: MarketID) -> Reading<[Trade]>? { state.withLock { $0.tapes[market] } }

    /// Trades read elsewhere (REST, to fill a tape the connection has just begun), merged by identity.
    public func seed(_ market: MarketID, trades: [Trade], now: ContinuousClock.Instant = .now) {
        state.withLock { s in
            guard s.watched.contains(market) else { return }
            let old = s.tapes[market]
            s.tapes[market] = Reading(value: TradeTape.newestFirst((old?.value ?? []) + trades), received: old?.received ?? now)
        }
    }

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.connectionLoop() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    /// Waits for something to watch, keeps the connection while anything is, and again.
    private func connectionLoop() async {
        while !Task.isCancelled {
            while state.withLock({ $0.watched.isEmpty }), !Task.isCancelled { await changed.wait() }
            guard !Task.isCancelled else { return }
            await withTaskGroup(of: Void.self) { connection in
                connection.addTask {
                    await self.stream.run(codes: { self.requested() }, events: { self.handle($0) }, accept: { _ in false })
                }
                connection.addTask {
                    while !self.state.withLock({ $0.watched.isEmpty }), !Task.isCancelled { await self.changed.wait() }
                }
                await connection.next()
                connection.cancelAll()
            }
            state.withLock { $0.connected = false }
        }
    }

    /// The list as it is when a request is sent (every connect, every resend).
    private func requested() -> [MarketID] {
        state.withLock { s in
            s.subscriptions += 1
            s.pending = false
            return s.watched.sorted { $0.code < $1.code }
        }
    }

    func handle(_ event: TickerStreamEvent, now: ContinuousClock.Instant = .now) {
        switch event {
        case .depth(.book(let book)):
            do {
                let checked = try book.checked()
                state.withLock { s in
                    guard s.watched.contains(checked.market) else { return }
                    s.books[checked.market] = Reading(value: checked, received: now)
                }
            } catch {
                dropped("\(error)")
            }
        case .depth(.trades(let trades)):
            guard let market = trades.first?.market else { return }
            guard trades.allSatisfy({ $0.market == market && $0.price.isFinite && $0.price > 0 && $0.volume.isFinite && $0.volume >= 0 }) else {
                dropped("badTrade")
                return
            }
            state.withLock { s in
                guard s.watched.contains(market) else { return }
                s.tapes[market] = Reading(value: TradeTape.newestFirst(trades + (s.tapes[market]?.value ?? [])), received: now)
            }
        case .garbage:
            dropped("malformed")
        case .connected:
            state.withLock { $0.connected = true }
        case .disconnected(let error):
            state.withLock { $0.connected = false }
            logger.info("depth stream lost", metadata: ["exchange": "\(exchange.rawValue)", "error": "\(error)"])
        case .rejected(let name, let message):
            logger.warning("depth subscription refused", metadata: ["exchange": "\(exchange.rawValue)", "name": "\(name)", "message": "\(message)"])
        case .connecting, .ticker, .prices, .heartbeat:
            break
        }
    }
}
