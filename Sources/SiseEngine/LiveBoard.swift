import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseFeeds
import Synchronization

/// One exchange's live board: bootstrapped over REST, kept current by the ticker stream, kept
/// alive by REST polling while the stream is down, published to any number of subscribers as
/// a snapshot and then coalesced changes. One upstream connection however many viewers.
public actor LiveBoard: Service {
    public let configuration: LiveBoardConfiguration
    private let api: any ExchangeAPI
    private let stream: any TickerStreaming
    private let now: @Sendable () -> Int64
    /// What the idle rule's checks sleep on (tests move it by hand).
    private let clock: any MonotonicClock
    private let logger: Logger

    private var markets: [MarketID: Market] = [:]
    private var ticks: [MarketID: Decimal] = [:]
    private var rows: [MarketID: MarketRow] = [:]
    /// When each market applied since the last flush arrived (epoch ms); the published board
    /// keeps them all.
    private var arrivedAt: [MarketID: Int64] = [:]
    /// The newest arrival, kept as ticks arrive rather than searched for on every flush.
    private var lastDataAt: Int64?
    private var unlisted: [MarketID: Ticker] = [:]
    private var changed: Set<MarketID> = []
    private var removed: [MarketID] = []
    private var status: ConnectivityStatus
    private var statusChanged = false
    /// Connectivity: live, delayed, offline, idle — decided by the pure machine.
    private var machine = BoardFeedMachine()
    private var streamDelivering: Bool { machine.streamDelivering }
    private var bootstrapped: Bool { machine.loaded }
    /// Frames the stream could not use (counted, skipped).
    public private(set) var garbageFrames = 0
    private var appliedCount = 0
    /// Ticks applied so far; those still waiting in the inbox are applied first, so the count
    /// never lags behind what the stream read.
    public var appliedTicks: Int {
        drainInbox()
        return appliedCount
    }
    /// Stream connections opened, and lost (a drop, a silence, a refusal).
    public private(set) var streamConnects = 0
    public private(set) var streamDisconnects = 0
    /// Reads of the stream's socket (frames are read in batches, one per flush).
    public nonisolated var streamReads: Int { stream.socketReads }
    /// REST requests this board's exchange client sent per group, and its 429s and 418s.
    public nonisolated var requestCounts: [RateLimitGroup: UpstreamRequestCount] { api.requestCounts }
    /// REST while the stream is quiet (and until the first listing is in).
    private let polling: QuietPolling
    /// Opens once the market list is known (the stream subscribes to it).
    private let bootstrappedLatch = Latch()
    /// The feed is parked because nobody watched for `idleAfter`.
    private var isIdle: Bool { machine.idle }
    /// Who watches, and the idle rule read from it.
    private let demand: ViewerDemand
    /// Wakes the flush loop when a parked feed opens again.
    private let feedAwake = Wakeup()

    /// A live board's ticks, read on the socket's thread, until the next flush.
    private let inbox = TickInbox()

    /// The board as of the last flush, and who follows it.
    private let publication: BoardPublication

    public init(
        configuration: LiveBoardConfiguration,
        api: any ExchangeAPI,
        stream: any TickerStreaming,
        now: @escaping @Sendable () -> Int64 = WallClock.system.milliseconds,
        clock: any MonotonicClock = SystemMonotonicClock(),
        logger: Logger = Logger(label: "sise.engine")
    ) {
        self.configuration = configuration
        polling = QuietPolling(interval: configuration.pollInterval)
        self.api = api
        self.stream = stream
        self.now = now
        self.clock = clock
        self.logger = logger
        // Nothing has been tried yet, let alone failed: connecting, not offline.
        let initial = ConnectivityStatus(exchange: configuration.exchange.rawValue, state: .connecting, since: now())
        status = initial
        publication = BoardPublication(status: initial)
        demand = ViewerDemand(neverSeen: configuration.startsIdle, now: now, clock: clock)
    }

    // MARK: - Viewers (the idle rule)

    /// A live view opened (a `/ws` client): the feed runs while any is open.
    public nonisolated func viewerArrived() { demand.arrived() }

    /// A live view closed.
    public nonisolated func viewerLeft() { demand.left() }

    /// Runs `body` as a viewer of this board (a face that follows it: `sise watch`, a terminal
    /// board): the feed runs, or wakes, for as long as `body` does.
    public nonisolated func viewing<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        viewerArrived()
        defer { viewerLeft() }
        return try await body()
    }

    /// A one-shot look at the board (an API request): keeps the feed awake, wakes it if idle.
    public nonisolated func touch() { demand.touch() }

    // MARK: - Faces

    /// The latest published board; cheap, never waits for the engine.
    public nonisolated var snapshot: BoardSnapshot { publication.snapshot }

    /// A snapshot now, then coalesced changes; ends when the consumer stops iterating.
    public nonisolated func updates() -> BoardUpdates { publication.updates() }

    public nonisolated var subscriberCount: Int { publication.subscriberCount }

    /// Whether the board has had data at all (an empty board before that means "not loaded",
    /// never "no markets").
    public nonisolated var hasData: Bool { publication.hasData }

    /// Waits until the first board is published, at most `timeout`; false if it was not.
    public nonisolated func waitForData(upTo timeout: Duration) async -> Bool {
        await publication.waitForData(upTo: timeout)
    }

    // MARK: - Running

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.flushLoop() }
            group.addTask { await self.refreshLoop() }
            group.addTask { await self.feedLoop() }
            // Runs until the service group shuts down (or the task is cancelled).
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    /// The upstream feed (stream, and polling while it is down) runs while someone watches;
    /// after `idleAfter` without a viewer it is closed, and the next viewer opens it again.
    private func feedLoop() async {
        if configuration.startsIdle, let idleAfter = configuration.idleAfter, !demand.watched(within: idleAfter) {
            enterIdle()
            await demand.untilSomeoneWatches(within: idleAfter)
            leaveIdle()
        }
        while !Task.isCancelled {
            await withTaskGroup(of: Void.self) { feed in
                feed.addTask { await self.pollLoop() }
                feed.addTask {
                    await self.stream.run(
                        codes: { await self.subscribedCodes() },
                        events: { await self.handle($0) },
                        accept: { self.accept($0) }
                    )
                }
                if let idleAfter = configuration.idleAfter {
                    feed.addTask { await self.demand.untilNobodyWatches(for: idleAfter) }
                }
                await feed.next()
                feed.cancelAll()
            }
            guard !Task.isCancelled, let idleAfter = configuration.idleAfter else { return }
            enterIdle()
            await demand.untilSomeoneWatches(within: idleAfter)
            leaveIdle()
        }
    }

    private func enterIdle() {
        inbox.clear()
        feed(.parked)
        logger.info("no viewers: upstream feed closed until the next one")
    }

    private func leaveIdle() {
        // Nothing read before the feed was parked counts as news of the new one.
        inbox.clear()
        // Woken: the last board is shown (delayed) until the feed delivers; with none yet, the
        // board is connecting.
        feed(.woke)
        feedAwake.signal()
    }

    private func subscribedCodes() async -> [MarketID] {
        _ = await bootstrappedLatch.wait(upTo: .seconds(86_400))
        return markets.keys.filter { configuration.quotes.map(\.rawValue).contains($0.quote) }.sorted()
    }

    // MARK: - Stream events

    /// On the stream's socket thread: a tick of a live board waits in the inbox (true); any
    /// other (one that makes the board live) is left to `handle`, on the actor, now.
    nonisolated func accept(_ ticker: Ticker) -> Bool {
        inbox.accept(ticker, at: now())
    }

    /// Applies the ticks waiting in the inbox, in the order they came.
    private func drainInbox() {
        let pending = inbox.take()
        // A frame still in flight when the feed was parked must not make an idle board "live".
        guard !pending.isEmpty, !isIdle else { return }
        for (ticker, at) in pending { apply(ticker, at: at) }
        feed(.streamTicks)
    }

    func handle(_ event: TickerStreamEvent) {
        // A frame still in flight when the feed was parked must not make an idle board "live".
        guard !isIdle else { return }
        // Whatever waited in the inbox came first.
        drainInbox()
        switch event {
        case .ticker(let ticker):
            apply(ticker)
            feed(.streamTicks)
        case .disconnected(let error):
            streamDisconnects += 1
            feed(.streamLost(error))
            polling.streamDropped()
        case .rejected(let name, let message):
            logger.warning("upbit rejected the subscription", metadata: ["name": "\(name)", "message": "\(message)"])
        case .garbage:
            garbageFrames += 1
        case .connected:
            streamConnects += 1
        case .connecting, .heartbeat, .prices, .depth:
            break
        }
    }

    private func apply(_ ticker: Ticker, at: Int64? = nil) {
        let id = ticker.market
        guard let market = markets[id] else {
            unlisted[id] = ticker
            return
        }
        if let current = rows[id], current.ticker.timestamp > ticker.timestamp { return }
        let at = at ?? now()
        arrivedAt[id] = at
        lastDataAt = max(lastDataAt ?? at, at)
        appliedCount += 1
        // The same figures again (a snapshot after a reconnect, a poll right after a frame):
        // the row is confirmed fresh, but nothing anyone can see changed, so nobody is told.
        if let current = rows[id], Self.sameFigures(current.ticker, ticker) {
            rows[id]?.ticker = ticker
            return
        }
        rows[id] = MarketRow(market: market, ticker: ticker, tickSize: ticks[id], exchange: configuration.exchange)
        changed.insert(id)
    }

    /// Equal but for the times they were stamped with.
    static func sameFigures(_ a: Ticker, _ b: Ticker) -> Bool {
        var restamped = b
        restamped.timestamp = a.timestamp
        restamped.tradeTimestamp = a.tradeTimestamp
        return restamped == a
    }

    /// Hands `event` to the machine and publishes what it changed.
    private func feed(_ event: BoardFeedMachine.Event) {
        if let change = machine.handle(event) { publish(change.state, error: change.error) }
    }

    private func publish(_ state: Connectivity, error: FeedError?) {
        let since = state == status.state ? status.since : now()
        let moved = state != status.state
        status = ConnectivityStatus(
            exchange: configuration.exchange.rawValue,
            state: state,
            since: since,
            lastDataAt: lastDataAt,
            error: error
        )
        statusChanged = true
        inbox.deliver(live: state == .live)
        // A change of state is news now, not at the end of the coalescing window.
        if moved { flush() }
    }

    // MARK: - Loops

    /// Flushes every coalescing window while the feed runs; a parked feed changes nothing, so
    /// the loop waits for it to open again instead of waking ten times a second for nothing.
    private func flushLoop() async {
        while !Task.isCancelled {
            if isIdle {
                await feedAwake.wait()
                continue
            }
            try? await Task.sleep(for: configuration.coalesceWindow)
            // The socket's frames are read now, in one go, rather than each waking the server
            // as it lands: they could not be seen before this flush anyway.
            await stream.collect(waitingAtMost: Self.collectPatience)
            flush()
        }
    }

    /// How long a flush waits for the socket's frames when none had arrived.
    static let collectPatience = Duration.milliseconds(5)

    /// Brings the published board up to date and hands every subscriber the rows changed since
    /// last time. Rows confirmed fresh with the same figures are published quietly (their
    /// arrival times move, which is what stale marks read) without telling anyone.
    private func flush() {
        drainInbox()
        let news = !changed.isEmpty || !removed.isEmpty || statusChanged
        guard news || !arrivedAt.isEmpty else { return }
        status.lastDataAt = lastDataAt
        let changedRows = changed.compactMap { rows[$0] }
        let confirmed = arrivedAt.keys.compactMap { changed.contains($0) ? nil : rows[$0] }
        let arrivals = arrivedAt
        let gone = removed
        let newStatus = statusChanged ? status : nil
        changed.removeAll(keepingCapacity: true)
        arrivedAt.removeAll(keepingCapacity: true)
        removed.removeAll()
        statusChanged = false
        publication.publish(
            changed: changedRows,
            confirmed: confirmed,
            arrivals: arrivals,
            gone: gone,
            status: status,
            newStatus: newStatus,
            news: news,
            bootstrapped: bootstrapped
        )
    }

    private func pollLoop() async {
        await polling.run(
            quiet: { !bootstrapped || !streamDelivering },
            step: {
                if bootstrapped { await poll() } else { await bootstrap() }
                return .zero
            }
        )
    }

    /// Markets, every ticker and the tick sizes; retried by the poll loop until it works.
    private func bootstrap() async {
        do {
            let listing = try await api.markets()
            let tickers = try await api.tickers(quotes: configuration.quotes)
            let found = (try? await api.tickSizes(markets: tickers.map(\.market))) ?? [:]
            install(listing: listing, ticks: found)
            for ticker in tickers { apply(ticker) }
            feed(.listed)
            bootstrappedLatch.open()
            stream.hostIsHealthy(true)
            flush()
        } catch {
            failed(error)
        }
    }

    private func poll() async {
        do {
            let tickers = try await api.tickers(quotes: configuration.quotes)
            for ticker in tickers { apply(ticker) }
            stream.hostIsHealthy(true)
            feed(.polled)
        } catch {
            failed(error)
        }
    }

    private func failed(_ error: any Error) {
        guard !(error is CancellationError) else { return }
        let feedError = error as? FeedError ?? .unreachable(host: configuration.exchange.rawValue, reason: String(describing: type(of: error)))
        // A 429 or 418 on REST is the exchange answering: its host is up, so the stream (whose
        // limits are its own) keeps retrying at the short cap rather than backing off for long.
        switch feedError {
        case .rateLimited, .blocked: stream.hostIsHealthy(true)
        default: stream.hostIsHealthy(false)
        }
        feed(.restFailed(feedError))
    }

    private func refreshLoop() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.marketRefreshInterval)
            guard bootstrapped, !isIdle, !Task.isCancelled else { continue }
            do {
                let listing = try await api.markets()
                let found =
                    (try? await api.tickSizes(
                        markets: listing.map(\.id).filter {
                            configuration.quotes.map(\.rawValue).contains($0.quote)
                        }
                    )) ?? ticks
                let before = Set(markets.keys)
                install(listing: listing, ticks: found)
                if Set(markets.keys) != before { stream.resubscribe() }
            } catch {
                logger.info("market list refresh failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Takes a new market list: updates names and flags, adds listings, removes delistings.
    private func install(listing: [Market], ticks found: [MarketID: Decimal]) {
        let quotes = Set(configuration.quotes.map(\.rawValue))
        let wanted = listing.filter { quotes.contains($0.id.quote) }
        let next = Dictionary(wanted.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in markets.keys where next[id] == nil {
            rows[id] = nil
            arrivedAt[id] = nil
            removed.append(id)
        }
        markets = next
        ticks = found
        for (id, market) in next {
            if var row = rows[id] {
                row.market = market
                row.tickSize = found[id]
                if row != rows[id] {
                    rows[id] = row
                    changed.insert(id)
                }
            } else if let ticker = unlisted.removeValue(forKey: id) {
                apply(ticker)
            }
        }
    }
}
