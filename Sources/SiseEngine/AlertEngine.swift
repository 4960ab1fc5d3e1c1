import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseStore
import Synchronization

/// Evaluates every enabled alert on every tick the boards apply (never by polling): each batch
/// of changed rows goes through the `AlertBook` (O(1) per ladder when nothing fires). A firing
/// is recorded in the store (a one-shot rule is disabled there) and then handed to `deliver`.
/// While any rule watches an exchange, its feed counts a viewer, so alerts fire with no page open.
/// Premium rules are read on their market's ticks and, every `sweep`, again as global prices and
/// the rate move (a line that must hold for minutes fires then even on a quiet market).
public final class AlertEngine: Service, Sendable {
    let boards: ExchangeBoards
    /// Each exchange's 호가/체결 feed: 체결강도 rules read their markets' tapes from it.
    private let depth: [Exchange: DepthFeed]
    /// When each watched tape was last read (a tape read again only once it changed).
    private let tapesRead = Mutex<[String: ContinuousClock.Instant]>([:])
    private let store: AlertStore
    private let premium: PremiumFeed?
    private let reader: AlertPremiumReader
    let pace: any MonotonicClock
    private let sweep: Duration
    private let deliver: @Sendable (AlertFiring) async -> Void
    let logger: Logger
    let book = Mutex(AlertBook())
    /// The exchanges this engine keeps awake (one viewer each).
    private let awake = Mutex<Set<Exchange>>([])
    private let running = Mutex(false)
    private let sweepTally = Mutex((done: 0, readings: 0))
    /// The latest tick time (epoch ms) among the rows applied, and the P&L reads finished.
    let progress = Mutex((appliedThrough: Int64(0), pnlReads: 0))
    /// Only this owner's rules (the terminal's `local`); nil: everyone's (the server).
    private let owner: String?
    /// The wall clock a firing is stamped with when its tick carries no time (the composition
    /// root's, so tests drive it).
    let clock: WallClock
    /// Where wide rules' lists are read (nil: wide rules watch nothing).
    let lists: WatchLists?
    /// Every this many seconds each followed list is read again (the terminal's faces, whose lists
    /// other processes write); nil: only when told (`listsChanged`, the server's way).
    let listRefresh: Int?

    /// Owners' positions as P&L lines read them (nil inside: a ledger that does not add up); read
    /// again once the owner's portfolio changes.
    let positions = Mutex<[String: [Position]?]>([:])
    /// The exchanges whose prices value some P&L line's holdings (kept awake as the rules' are).
    let pnlExchanges = Mutex<Set<Exchange>>([])

    /// Rules read from the store at a time when the engine starts.
    static let loadPage = 5_000

    public init(
        boards: ExchangeBoards,
        depth: [Exchange: DepthFeed] = [:],
        store: AlertStore,
        premium: PremiumFeed? = nil,
        globalPrices: GlobalPrices? = nil,
        lists: WatchLists? = nil,
        listRefresh: Int? = nil,
        owner: String? = nil,
        clock: WallClock = .system,
        pace: any MonotonicClock = .system,
        sweep: Duration = .seconds(5),
        logger: Logger = Logger(label: "sise.alerts"),
        deliver: @escaping @Sendable (AlertFiring) async -> Void
    ) {
        self.boards = boards
        self.depth = depth
        self.lists = lists
        self.listRefresh = listRefresh
        self.clock = clock
        self.owner = owner
        self.store = store
        self.premium = premium
        reader = AlertPremiumReader(boards: boards, global: globalPrices)
        self.pace = pace
        self.sweep = sweep
        self.logger = logger
        self.deliver = deliver
    }

    public func run() async throws {
        do {
            // A page at a time: a million rules never sit in memory twice (as rows and in the book).
            var after = ""
            while true {
                let page = try await store.enabledRules(after: after, limit: Self.loadPage)
                book.withLock { book in for rule in page where owner == nil || rule.owner == owner { book.insert(rule) } }
                guard page.count == Self.loadPage, let last = page.last else { break }
                after = last.id
            }
        } catch {
            logger.error("alerts could not be loaded", metadata: ["error": "\(error)"])
        }
        running.withLock { $0 = true }
        syncAwake()
        await withDiscardingTaskGroup { group in
            for (exchange, board) in boards.all {
                group.addTask { await self.follow(exchange, board) }
            }
            group.addTask { await self.sweepPremiums() }
            group.addTask { await self.seedIndicators() }
            group.addTask { await self.readTapes() }
            group.addTask { await self.readLists() }
            group.addTask { await self.readPnL() }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        running.withLock { $0 = false }
        for exchange in awake.withLock({ all in
            defer { all = [] }
            return all
        }) { boards[exchange]?.viewerLeft() }
    }

    /// The enabled rules in the book now (all of them once `run` has loaded the store).
    public var ruleCount: Int { book.withLock { $0.rules.count } }
    /// Whether `run` has loaded the store and follows the boards.
    public var isRunning: Bool { running.withLock { $0 } }
    /// Whether every indicator series has had its exchange candles asked for.
    public var indicatorsSeeded: Bool { book.withLock { $0.unseeded.isEmpty } }
    /// Premium sweeps finished, and the readings with a figure they made, in all: a sweep's
    /// firings are delivered before it counts, so a test that drives the clock waits on this.
    public var sweeps: (done: Int, readings: Int) { sweepTally.withLock { $0 } }
    /// How far the engine has read its boards: the latest tick time (epoch ms) of the rows it
    /// applied — a test proves a quiet market fired nothing once this has passed the minutes it
    /// asks about, not after a sleep it hopes was long enough.
    public var appliedThrough: Int64 { progress.withLock { $0.appliedThrough } }
    /// P&L reads finished (each settles its firings first), as `sweeps` are for premium lines.
    public var pnlReads: Int { progress.withLock { $0.pnlReads } }
    /// Rule × market pairs armed (every owner's).
    public var armedPairs: Int { book.withLock { $0.pairCount } }
    /// Indicator series kept (shared by every rule on the same exchange, market and interval).
    public var indicatorSeries: Int { book.withLock { $0.seriesCount } }

    /// The rules of `ids` that still wait for their candles ("준비 중").
    public func preparing(_ ids: [String]) -> Set<String> {
        book.withLock { book in Set(ids.filter { book.isPreparing($0) }) }
    }

    /// The markets a wide rule left unarmed for its owner's bound of `AlertBook.pairsPerOwner`.
    public func unarmedMarkets(_ id: String) -> Int { book.withLock { $0.unarmedMarkets(id) } }

    /// A rule was created or changed: it is (re-)armed, and evaluated at once against the live
    /// price (its first evaluation counts the condition as not held before).
    public func upsert(_ rule: AlertRule) async {
        book.withLock { $0.insert(rule) }
        if let target = rule.target, target.isList, rule.enabled {
            await read(AlertBook.ListKey(owner: rule.owner, target: target, exchange: rule.exchange))
        }
        syncAwake()
        guard rule.enabled, let board = boards[rule.exchange] else { return }
        let snapshot = board.snapshot
        guard snapshot.status.state == .live else { return }
        let markets = rule.target == nil ? [rule.market] : book.withLock { $0.memberMarkets(rule.id) }
        await apply(rule.exchange, markets.compactMap { snapshot.rows[$0] })
    }

    /// Rules that changed hands (a device's, now its account's): later firings go to the new
    /// owner; armed or not, their state stays.
    public func reowned(_ rules: [AlertRule]) {
        book.withLock { book in for rule in rules { book.setOwner(rule.id, rule.owner) } }
    }

    public func remove(_ id: String) {
        book.withLock { $0.remove(id) }
        syncAwake()
    }

    /// Another replica changed `owner`'s rules: these are all of them now. Rules whose setting
    /// is unchanged keep their state; new and changed ones are armed, missing ones dropped.
    public func replace(owner: String, with rules: [AlertRule]) async {
        let current = book.withLock { book in book.rules.values.filter { $0.owner == owner } }
        let wanted = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for rule in current where wanted[rule.id]?.enabled != true { remove(rule.id) }
        for rule in rules where rule.enabled {
            if let armed = book.withLock({ $0.rules[rule.id] }), Self.sameSetting(armed, rule) { continue }
            await upsert(rule)
        }
    }

    private static func sameSetting(_ a: AlertRule, _ b: AlertRule) -> Bool {
        a.owner == b.owner && a.exchange == b.exchange && a.market == b.market && a.target == b.target && a.kind == b.kind && a.value == b.value
            && a.windowMinutes == b.windowMinutes && a.indicator == b.indicator && a.venue == b.venue && a.holdMinutes == b.holdMinutes
            && a.recurring == b.recurring
            && a.cooldownSeconds == b.cooldownSeconds && a.enabled == b.enabled
    }

    private func follow(_ exchange: Exchange, _ board: LiveBoard) async {
        for await update in board.updates() {
            if Task.isCancelled { return }
            if case .changes(let rows) = update { await apply(exchange, rows) }
        }
    }

    /// Every `sweep`, each watched premium read again: global prices and the rate move between
    /// a market's ticks, and held lines complete with no tick at all.
    private func sweepPremiums() async {
        while !Task.isCancelled {
            do { try await pace.sleep(for: sweep) } catch { return }
            let read = await sweepOnce()
            sweepTally.withLock { $0 = ($0.done + 1, $0.readings + read) }
        }
    }

    /// One sweep: each watched premium read and its firings settled; how many had a figure.
    private func sweepOnce() async -> Int {
        let watches = book.withLock { $0.premiumWatches }
        guard !watches.isEmpty else { return 0 }
        reader.touch(watches.map(\.venue))
        let inputs = premium?.inputs
        let now = clock.now
        var fired: [(AlertBook.Fired, price: Double)] = []
        var read = 0
        for watch in watches {
            guard let board = boards[watch.exchange], board.snapshot.status.state == .live, let row = board.snapshot.rows[watch.market],
                let percent = reader.percent(row, on: watch.exchange, against: watch.venue, inputs: inputs, now: now)
            else { continue }
            read += 1
            let firings = book.withLock {
                $0.premium(percent, exchange: watch.exchange, market: watch.market, venue: watch.venue, at: now)
            }
            fired += firings.map { ($0, row.ticker.price) }
        }
        await settle(fired, now: now)
        return read
    }

    /// Every second: the markets some 체결강도 rule watches are carried by their exchange's depth
    /// feed (as the alerts' own watch, beside the pages'), and each tape that changed is read.
    private func readTapes() async {
        while !Task.isCancelled {
            let watches = book.withLock { $0.strengthWatches }
            var byExchange: [Exchange: Set<MarketID>] = [:]
            for watch in watches { byExchange[watch.exchange, default: []].insert(watch.market) }
            for (exchange, feed) in depth { feed.watch(byExchange[exchange] ?? [], by: "alerts") }
            let now = clock.now
            var fired: [(AlertBook.Fired, price: Double)] = []
            for watch in watches {
                guard let tape = depth[watch.exchange]?.tape(watch.market) else { continue }
                let key = watch.exchange.rawValue + ":" + watch.market.code
                let fresh = tapesRead.withLock { read in
                    defer { read[key] = tape.received }
                    return read[key] != tape.received
                }
                guard fresh, let percent = TradeTape.strength(tape.value), let price = tape.value.first?.price else { continue }
                let firings = book.withLock { $0.strength(percent, exchange: watch.exchange, market: watch.market, at: now) }
                fired += firings.map { ($0, price) }
            }
            await settle(fired, now: now)
            do { try await pace.sleep(for: .seconds(1)) } catch { break }
        }
        for feed in depth.values { feed.watch([], by: "alerts") }
    }

    /// Seeding's share of an exchange's REST calls: at most one candle request per `seedGap` on
    /// each exchange (its client's rate limit keeps the rest for the board's own calls), one
    /// request at a time, never inside a request of the API.
    static let seedGap: Duration = .milliseconds(250)
    /// How many series are asked for before the turn order is read again (a new owner's rule
    /// waits at most this many calls, not for another owner's hundreds).
    static let seedTurn = 8

    /// Indicator series with no history yet get the exchange's closed candles (a new rule, or
    /// every rule after a restart, reads its first signal on the next close, not hours of closes
    /// later), each exchange on its own, owners taking turns (`AlertBook.unseededInTurn`). A
    /// series whose candles cannot be had warms up from the ticks.
    private func seedIndicators() async {
        await withDiscardingTaskGroup { group in
            for (exchange, _) in boards.all { group.addTask { await self.seed(exchange) } }
        }
    }

    private func seed(_ exchange: Exchange) async {
        while !Task.isCancelled {
            let turn = book.withLock { $0.unseededInTurn(on: exchange).prefix(Self.seedTurn) }
            for series in turn {
                if Task.isCancelled { return }
                let closes = await closedCandles(series)
                book.withLock { $0.seed(series.exchange, series.market, minutes: series.minutes, closes) }
                do { try await pace.sleep(for: Self.seedGap) } catch { return }
            }
            if turn.isEmpty {
                do { try await pace.sleep(for: .seconds(1)) } catch { return }
            }
        }
    }

    /// The exchange's closed candles of a series (start epoch ms, close; oldest first); none when
    /// they cannot be had.
    private func closedCandles(_ series: AlertBook.Series) async -> [(start: Int64, close: Double)] {
        guard let api = boards[series.exchange]?.api else { return [] }
        let unit: CandleUnit = series.minutes >= 1_440 ? .days : .minutes(series.minutes)
        let candles = (try? await api.candles(market: series.market, unit: unit, count: IndicatorSignal.history, to: nil)) ?? []
        let span = Int64(series.minutes) * 60_000
        let forming = clock.now / span * span
        // A start no clock could have (an upstream's nonsense date) is left out, never converted.
        return candles.compactMap { candle -> (start: Int64, close: Double)? in
            let ms = (candle.start.timeIntervalSince1970 * 1_000).rounded()
            guard ms.isFinite, ms >= 0, ms < 1e15 else { return nil }
            let start = Int64(ms)
            return start < forming ? (start, candle.close) : nil
        }.sorted { $0.start < $1.start }
    }

    func apply(_ exchange: Exchange, _ rows: [MarketRow]) async {
        let inputs = premium?.inputs
        let now = clock.now
        // Premium readings first, outside the book's lock (a venue's cell reads other boards).
        var readings: [MarketID: [(GlobalVenue, Double)]] = [:]
        // Only the rows some premium rule watches (a tick of an unwatched market costs a lookup).
        let watched = book.withLock { book in rows.compactMap { row in book.premiumVenues(exchange, row.id).nilIfEmpty.map { (row, $0) } } }
        for (row, venues) in watched {
            for venue in venues {
                if let percent = reader.percent(row, on: exchange, against: venue, inputs: inputs, now: now) {
                    readings[row.id, default: []].append((venue, percent))
                }
            }
        }
        let fired = book.withLock { book -> [(AlertBook.Fired, price: Double)] in
            var fired: [(AlertBook.Fired, price: Double)] = []
            for row in rows where book.watches(exchange, row.id) {
                let at = row.ticker.timestamp > 0 ? row.ticker.timestamp : now
                var firings = book.price(row.ticker.price, exchange: exchange, market: row.id, at: at)
                firings += book.tradeValue(row.ticker.tradeValue24h, exchange: exchange, market: row.id, at: at)
                for (venue, percent) in readings[row.id] ?? [] {
                    firings += book.premium(percent, exchange: exchange, market: row.id, venue: venue, at: at)
                }
                fired += firings.map { ($0, row.ticker.price) }
            }
            return fired
        }
        await settle(fired, now: now)
        if let latest = rows.lazy.map(\.ticker.timestamp).max() {
            progress.withLock { $0.appliedThrough = max($0.appliedThrough, latest) }
        }
    }

    /// Each firing claimed in the store (once across replicas) and delivered.
    func settle(_ fired: [(AlertBook.Fired, price: Double)], now: Int64) async {
        guard !fired.isEmpty else { return }
        syncAwake()
        for (one, price) in fired {
            let firing = AlertFiring(
                id: UUID().uuidString.lowercased(),
                rule: one.rule,
                price: price,
                observed: one.observed,
                at: one.rule.lastFiredAt ?? now
            )
            do {
                // Another replica that saw the same tick may have claimed it: delivered once.
                guard try await store.record(firing, rule: one.rule) else { continue }
            } catch {
                logger.error("an alert firing could not be stored", metadata: ["error": "\(error)"])
            }
            await deliver(firing)
        }
    }

    /// One viewer on each exchange some rule watches; none on the others.
    func syncAwake() {
        guard running.withLock({ $0 }) else { return }
        let wanted = book.withLock { $0.exchanges }.union(pnlExchanges.withLock { $0 })
        let (arrive, leave) = awake.withLock { current -> (Set<Exchange>, Set<Exchange>) in
            defer { current = wanted }
            return (wanted.subtracting(current), current.subtracting(wanted))
        }
        for exchange in arrive { boards[exchange]?.viewerArrived() }
        for exchange in leave { boards[exchange]?.viewerLeft() }
    }
}

extension Array {
    /// nil for an empty array.
    fileprivate var nilIfEmpty: Self? { isEmpty ? nil : self }
}
