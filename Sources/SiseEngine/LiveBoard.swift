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
    let api: any ExchangeAPI
    let stream: any TickerStreaming
    let now: @Sendable () -> Int64
    /// What the idle rule's checks sleep on (tests move it by hand).
    private let clock: any MonotonicClock
    /// What the board's cadences wait on: the coalescing window, the market list's refresh.
    let pace: any MonotonicClock
    let logger: Logger

    /// The rows, and what changed since the last flush.
    var board: BoardRows
    private(set) var status: ConnectivityStatus
    private var statusChanged = false
    /// Connectivity: live, delayed, offline, idle — decided by the pure machine.
    private var machine = BoardFeedMachine()
    var streamDelivering: Bool { machine.streamDelivering }
    var bootstrapped: Bool { machine.loaded }
    /// Frames the stream could not use (counted, skipped).
    public private(set) var garbageFrames = 0
    /// Ticks applied so far; those still waiting in the inbox are applied first, so the count
    /// never lags behind what the stream read.
    public var appliedTicks: Int {
        drainInbox()
        return board.applied
    }
    /// Stream connections opened, and lost (a drop, a silence, a refusal).
    public private(set) var streamConnects = 0
    public private(set) var streamDisconnects = 0
    /// Reads of the stream's socket (frames are read in batches, one per flush).
    public nonisolated var streamReads: Int { stream.socketReads }
    /// REST requests this board's exchange client sent per group, and its 429s and 418s.
    public nonisolated var requestCounts: [RateLimitGroup: UpstreamRequestCount] { api.requestCounts }
    /// REST while the stream is quiet (and until the first listing is in).
    let polling: QuietPolling
    /// Opens once the market list is known (the stream subscribes to it).
    let bootstrappedLatch = Latch()
    /// The feed is parked because nobody watched for `idleAfter`.
    var isIdle: Bool { machine.idle }
    /// Who watches, and the idle rule read from it.
    let demand: ViewerDemand
    /// Wakes the flush loop when a parked feed opens again.
    private let feedAwake = Wakeup()

    /// A live board's ticks, read on the socket's thread, until the next flush.
    private let inbox = TickInbox()
    /// The last trade at or before an instant, per market, while one is held (`holdTrades`).
    var held: HeldTrades?
    /// The stream's drops when the hold began, whether it was live then, and how many hold it.
    var heldSince: (disconnects: Int, live: Bool, holders: Int)?

    /// The board as of the last flush, and who follows it.
    let publication: BoardPublication

    public init(
        configuration: LiveBoardConfiguration,
        api: any ExchangeAPI,
        stream: any TickerStreaming,
        now: @escaping @Sendable () -> Int64 = WallClock.system.milliseconds,
        clock: any MonotonicClock = SystemMonotonicClock(),
        pace: any MonotonicClock = SystemMonotonicClock(),
        logger: Logger = Logger(label: "sise.engine")
    ) {
        self.pace = pace
        self.configuration = configuration
        board = BoardRows(exchange: configuration.exchange, quotes: configuration.quotes)
        polling = QuietPolling(interval: configuration.pollInterval, clock: pace)
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
        return board.subscribed
    }

    // MARK: - Stream events

    /// On the stream's socket thread: a tick of a live board waits in the inbox (true); any
    /// other (one that makes the board live) is left to `handle`, on the actor, now.
    nonisolated func accept(_ ticker: Ticker) -> Bool {
        inbox.accept(ticker, at: now())
    }

    /// Applies the ticks waiting in the inbox, in the order they came.
    func drainInbox() {
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

    func apply(_ ticker: Ticker, at: Int64? = nil) {
        board.apply(ticker, at: at ?? now())
        held?.observe(ticker)
    }

    /// Hands `event` to the machine and publishes what it changed.
    func feed(_ event: BoardFeedMachine.Event) {
        if let change = machine.handle(event) { publish(change.state, error: change.error) }
    }

    private func publish(_ state: Connectivity, error: FeedError?) {
        let since = state == status.state ? status.since : now()
        let moved = state != status.state
        status = ConnectivityStatus(
            exchange: configuration.exchange.rawValue,
            state: state,
            since: since,
            lastDataAt: board.lastDataAt,
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
            try? await pace.sleep(for: configuration.coalesceWindow)
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
    func flush() {
        drainInbox()
        guard board.pending || statusChanged else { return }
        status.lastDataAt = board.lastDataAt
        let taken = board.take()
        let newStatus = statusChanged ? status : nil
        statusChanged = false
        publication.publish(
            changed: taken.changed,
            confirmed: taken.confirmed,
            arrivals: taken.arrivals,
            gone: taken.gone,
            status: status,
            newStatus: newStatus,
            news: taken.news || newStatus != nil,
            bootstrapped: bootstrapped
        )
    }
}
