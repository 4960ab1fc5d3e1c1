import Dispatch
import Foundation
import SiseCore
import SiseEngine
import SiseStore

#if canImport(Glibc)
import Glibc
#endif

/// The running terminal UI: keys, board updates, resizes and signals become events; frames are
/// rendered as values and only their differences are written: at once after a key, and at most
/// 10 times a second as data arrives (the board's own cadence).
public final class TUIApp: Sendable {
    enum Event: Sendable {
        case keys([Key])
        case board(Exchange, BoardUpdate)
        case resize
        case tick
        /// The frame interval held a frame back and is now up.
        case frameDue
        case quit
        case chart(MarketID, [PricePoint], YearRange?)
        case trending(Trending?)
        case ranking(RankingLoad?)
        case portfolio([PortfolioTransaction]?)
        case candles(MarketID, [Candle])
        case depth(DepthLoad)
        case alert(AlertFiring)
    }

    private let boards: ExchangeBoards
    private let favorites: any FavoritesRepository
    private let owner: String
    private let initial: TUIState
    /// Markets changed per board since the screen last placed them (never dropped).
    private let touched = TouchedMarkets()
    private let chartSource: @Sendable (Exchange, MarketID) async -> ([PricePoint], YearRange?)
    private let candleSource: @Sendable (Exchange, MarketID) async -> [Candle]
    private let depthSource: @Sendable (Exchange, MarketID) async -> (Orderbook?, [Trade])
    private let trendingSource: @Sendable () async -> Trending?
    private let rankingSource: @Sendable (RankingCurrency, Int) async -> RankingLoad?
    private let premium: PremiumFeed?
    private let portfolio: PortfolioStore?
    private let alerts: AlertStore?
    /// How long a market whose alert fired stays highlighted.
    static let alertHighlight: Int64 = 8_000
    /// The ranking is asked again this often while it is on screen.
    static let rankingRefresh: Int64 = 60_000
    /// Data redraws the screen at most this often (the board publishes every 100 ms; drawing
    /// between its batches shows nothing new). A key is drawn at once.
    static let frameInterval = Duration.milliseconds(100)

    /// - Parameters:
    ///   - chart: a week of prices for the detail screen (Upbit candles).
    ///   - trending: CoinGecko trending for `t` (nil when it cannot be had).
    /// - Parameter boards: every exchange's board (`e` cycles them, `c` compares them).
    /// The wall clock frames, loads and firings are timed by (the composition root's).
    private let clock: WallClock

    public init(
        boards: ExchangeBoards,
        favorites: any FavoritesRepository,
        owner: String = "local",
        state: TUIState,
        chart: @escaping @Sendable (Exchange, MarketID) async -> ([PricePoint], YearRange?) = { _, _ in ([], nil) },
        trending: @escaping @Sendable () async -> Trending? = { nil },
        ranking: @escaping @Sendable (RankingCurrency, Int) async -> RankingLoad? = { _, _ in nil },
        premium: PremiumFeed? = nil,
        portfolio: PortfolioStore? = nil,
        alerts: AlertStore? = nil,
        candles: @escaping @Sendable (Exchange, MarketID) async -> [Candle] = { _, _ in [] },
        depth: @escaping @Sendable (Exchange, MarketID) async -> (Orderbook?, [Trade]) = { _, _ in (nil, []) },
        clock: WallClock = .system
    ) {
        self.clock = clock
        candleSource = candles
        depthSource = depth
        self.portfolio = portfolio
        self.alerts = alerts
        self.boards = boards
        self.favorites = favorites
        self.owner = owner
        initial = state
        chartSource = chart
        trendingSource = trending
        rankingSource = ranking
        self.premium = premium
    }

    /// Runs until `q` (or a signal). The terminal is restored on every way out.
    public func run(session: TerminalSession) async throws {
        try session.enter()
        defer { session.restore() }
        let (events, sink) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(256))
        let signals = Self.watchSignals(sink)
        defer { for signal in signals { signal.cancel() } }
        let reader = Self.readKeys(session, sink)
        defer { reader.cancel() }
        // Loads the screens ask for (a chart, trending), run beside the event loop.
        let (loads, loader) = AsyncStream.makeStream(of: (@Sendable () async -> Event).self, bufferingPolicy: .bufferingNewest(8))
        let touched = self.touched
        await withDiscardingTaskGroup { group in
            for (exchange, board) in boards.all {
                group.addTask {
                    for await update in board.updates() {
                        touched.note(exchange, update)
                        sink.yield(.board(exchange, update))
                    }
                }
            }
            if let alerts {
                // The terminal's alerts fire here as they do on the server: the bell rings.
                let engine = AlertEngine(boards: boards, store: alerts, premium: premium, owner: owner, clock: clock) { sink.yield(.alert($0)) }
                group.addTask { try? await engine.run() }
            }
            if let premium {
                group.addTask {
                    // A global price or the rate moved: the 김프 column redraws.
                    for await _ in premium.updates() { sink.yield(.tick) }
                }
            }
            group.addTask {
                // Flashes fade on a timer: four times a second is enough for the eye.
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(250))
                    sink.yield(.tick)
                }
            }
            group.addTask {
                await withDiscardingTaskGroup { running in
                    for await load in loads { running.addTask { sink.yield(await load()) } }
                }
            }
            await handle(events, session: session, load: { loader.yield($0) })
            loader.finish()
            group.cancelAll()
        }
    }

    private func loadDepth(_ id: MarketID, _ exchange: Exchange, _ load: (@escaping @Sendable () async -> Event) -> Void) {
        let source = depthSource
        let clock = clock
        load {
            let (book, tape) = await source(exchange, id)
            return .depth(DepthLoad(market: id, book: book, tape: tape, at: clock.now))
        }
    }

    /// The event loop: state changes, and a frame at most every `frameInterval`. Returns on `q`
    /// or a signal.
    private func handle(
        _ events: AsyncStream<Event>,
        session: TerminalSession,
        load: (@escaping @Sendable () async -> Event) -> Void
    ) async {
        var state = initial
        state.favorites = await favoriteMarkets(of: state.exchange)
        state.favoriteCoins = await favoriteCoins()
        // The screen watches its exchange; the others wake when switched to or compared.
        var watched = state.exchange
        boards[watched]?.viewerArrived()
        defer { boards[watched]?.viewerLeft() }
        let controller = TUIController()
        let renderer = TUIRenderer()
        var previous: ScreenFrame?
        var lastRender = ContinuousClock.now.advanced(by: .seconds(-1))
        var prices: [MarketID: Double] = [:]
        /// The board's rows in the screen's order, kept between frames: only the markets
        /// changed since the last frame (`touched`) are placed again.
        var viewOrder: ViewOrder?
        var transactions: [PortfolioTransaction] = []
        var dirty = true
        /// A key was pressed: its frame is drawn now, not at the next data frame.
        var urgent = true
        /// A frame held back by `frameInterval` has a wake-up on its way.
        var wakeAsked = false
        for await event in events {
            let now = clock.now
            let size = session.size
            switch event {
            case .quit:
                return
            case .keys(let keys):
                state.premium = premium?.inputs ?? .none
                var rows = state.query.apply(board(state).snapshot.rows.values, premium: state.premium)
                for key in keys {
                    let page = max(1, size.height - 4)
                    let ranked = state.screen == .ranking ? state.rankingPage(listings: boards.koreanListings)?.rows ?? [] : []
                    switch controller.handle(key, state: &state, rows: rows, page: page, ranked: ranked) {
                    case .quit: return
                    case .toggleFavorite(let id): await toggle(id, &state)
                    case .switchExchange(let exchange):
                        boards[watched]?.viewerLeft()
                        boards[exchange]?.viewerArrived()
                        watched = exchange
                        state.favorites = await favoriteMarkets(of: exchange)
                        prices = [:]
                        viewOrder = nil
                        previous = nil
                    case .loadChart(let id):
                        let source = chartSource
                        let exchange = state.exchange
                        load {
                            let (points, year) = await source(exchange, id)
                            return .chart(id, points, year)
                        }
                    case .loadTrending:
                        let source = trendingSource
                        load { .trending(await source()) }
                    case .loadRanking:
                        state.ranking.loadedAt = now
                        let source = rankingSource
                        let request = state.ranking.request
                        load { .ranking(await source(request.currency, request.blocks)) }
                    case .toggleCoinFavorite(let id): await toggleCoin(id, &state)
                    case .loadCandles(let id):
                        let source = candleSource
                        let exchange = state.exchange
                        load { .candles(id, await source(exchange, id)) }
                    case .loadDepth(let id):
                        loadDepth(id, state.exchange, load)
                    case .loadPortfolio:
                        let store = portfolio
                        let owner = owner
                        load { .portfolio(try? await store?.transactions(owner: owner)) }
                    case .none: break
                    }
                    rows = state.query.apply(board(state).snapshot.rows.values, premium: state.premium)
                }
                dirty = true
                urgent = true
            case .board(let exchange, _) where exchange != state.exchange:
                // Another exchange moved: only the compare screen shows it.
                if state.screen == .compare { dirty = true }
            case .board(_, let update):
                switch update {
                case .changes(let changed):
                    for row in changed {
                        if let old = prices[row.id], old != row.ticker.price {
                            state.flashes[row.id] = (Tone.move(from: old, to: row.ticker.price), now + 600)
                        }
                        prices[row.id] = row.ticker.price
                    }
                case .snapshot(let snapshot):
                    for (id, row) in snapshot.rows { prices[id] = row.ticker.price }
                case .removed, .status:
                    break
                }
                dirty = true
            case .resize:
                previous = nil
                dirty = true
            case .candles(let id, let candles):
                state.candles = (id, candles)
                dirty = true
            case .depth(let loaded):
                state.depthLoad = loaded
                dirty = true
            case .portfolio(let loaded):
                transactions = loaded ?? []
                if loaded == nil { state.message = UIText.storeFailed(state.language, ["reason": "portfolio"]) }
                dirty = true
            case .alert(let firing):
                session.write("\u{07}")
                state.message = "🔔 " + (firing.message[state.language.rawValue] ?? firing.market)
                if firing.exchange == state.exchange.rawValue, let id = MarketID(firing.market) { state.alerted[id] = now + Self.alertHighlight }
                dirty = true
            case .chart(let id, let points, let year):
                state.chart = (id, points, year)
                dirty = true
            case .trending(let trending):
                state.trending = trending
                if trending == nil { state.message = UIText.trendingUnavailable(state.language) }
                dirty = true
            case .ranking(let loaded):
                if let loaded {
                    state.ranking.coins = loaded.coins
                    state.ranking.global = loaded.global ?? state.ranking.global
                    state.ranking.staleNote = loaded.staleNote
                } else {
                    state.message = UIText.trendingUnavailable(state.language)
                }
                dirty = true
            case .frameDue:
                wakeAsked = false
            case .tick:
                // The book and tape on screen are read again every second.
                if state.screen == .detail, state.depth != nil, let shown = state.depthLoad, now - shown.at >= 1_000 {
                    state.depthLoad?.at = now
                    loadDepth(shown.market, state.exchange, load)
                }
                state.flashes = state.flashes.filter { $0.value.until > now }
                state.alerted = state.alerted.filter { $0.value > now }
                if state.screen == .ranking, now - state.ranking.loadedAt >= Self.rankingRefresh {
                    state.ranking.loadedAt = now
                    let source = rankingSource
                    let request = state.ranking.request
                    load { .ranking(await source(request.currency, request.blocks)) }
                }
                dirty = true
            }
            guard dirty else { continue }
            let sinceLast = ContinuousClock.now - lastRender
            if !urgent && sinceLast < Self.frameInterval {
                // Too soon after the last frame: it is drawn when the interval is up, not at
                // whatever event comes next.
                if !wakeAsked {
                    wakeAsked = true
                    let wait = Self.frameInterval - sinceLast
                    load {
                        try? await Task.sleep(for: wait)
                        return .frameDue
                    }
                }
                continue
            }
            // The order is brought up to date once per frame (at most 10 a second), not per event,
            // and only the rows that changed since the last frame are placed again.
            let board = board(state)
            state.premium = premium?.inputs ?? .none
            let (changed, everything) = touched.take(state.exchange)
            var order = viewOrder.flatMap { $0.query == state.query && !everything ? $0 : nil } ?? ViewOrder(query: state.query)
            viewOrder = nil  // `order` is the only owner of its rows while they are updated
            order.update(board.snapshot.rows, touched: changed, premium: state.premium)
            let rows = order.rows
            viewOrder = order
            let rankingPage = state.screen == .ranking ? state.rankingPage(listings: boards.koreanListings) : nil
            if let rankingPage {
                state.clamp(count: rankingPage.rows.count, visible: max(1, size.height - 6))
            } else {
                let visible = max(1, size.height - (state.searching || !state.search.isEmpty ? 4 : 3))
                state.clamp(count: rows.count, visible: visible)
            }
            if state.screen == .compare { for (_, other) in boards.all { other.touch() } }
            if state.screen == .portfolio { state.portfolio = try? boards.portfolio(transactions) }
            let compared = state.screen == .compare ? CompareBoard.rows(boards.compareVenues()) : []
            let frame = renderer.render(
                state,
                snapshot: board.snapshot,
                rows: rows,
                width: size.width,
                height: size.height,
                now: now,
                compared: compared,
                ranking: rankingPage
            )
            let output = FrameDiff.render(from: previous, to: frame)
            if !output.isEmpty { session.write(output) }
            previous = frame
            lastRender = .now
            dirty = false
            urgent = false
        }
    }

    /// The board on screen (Upbit's if the state names one this process does not run).
    private func board(_ state: TUIState) -> LiveBoard {
        boards[state.exchange] ?? boards.defaultBoard
    }

    /// `exchange`'s markets among the stored favorites (`KRW-BTC` is Upbit's, `korbit:KRW-BTC` Korbit's).
    private func favoriteMarkets(of exchange: Exchange) async -> Set<MarketID> {
        Set(
            ((try? await favorites.list(owner: owner)) ?? []).compactMap { key -> MarketID? in
                guard case .market(let code, let on)? = FavoriteItem(key), on == exchange else { return nil }
                return MarketID(code)
            }
        )
    }

    /// The stored favorites that are CoinGecko coins.
    private func favoriteCoins() async -> Set<String> {
        Set(
            ((try? await favorites.list(owner: owner)) ?? []).compactMap { key -> String? in
                guard case .coin(let id)? = FavoriteItem(key) else { return nil }
                return id
            }
        )
    }

    private func toggleCoin(_ id: String, _ state: inout TUIState) async {
        if let now = await flip(id, isOn: state.favoriteCoins.contains(id), &state) {
            if now { state.favoriteCoins.insert(id) } else { state.favoriteCoins.remove(id) }
        }
    }

    private func toggle(_ id: MarketID, _ state: inout TUIState) async {
        let key = FavoriteItem.market(id.code, state.exchange).key
        if let now = await flip(key, isOn: state.favorites.contains(id), &state) {
            if now { state.favorites.insert(id) } else { state.favorites.remove(id) }
        }
    }

    /// Stores the favorite `key` on or off and says so; whether it is on now (nil: it failed).
    private func flip(_ key: String, isOn: Bool, _ state: inout TUIState) async -> Bool? {
        do {
            if isOn {
                try await favorites.remove(owner: owner, item: key)
            } else {
                try await favorites.add(owner: owner, item: key)
            }
            state.message = isOn ? UIText.removed(state.language) : UIText.added(state.language)
            return !isOn
        } catch {
            state.message = UIText.favoriteFailed(state.language)
            return nil
        }
    }

    /// SIGWINCH reflows; SIGINT/SIGTERM/SIGHUP end the loop (and so restore the terminal).
    private static func watchSignals(_ sink: AsyncStream<Event>.Continuation) -> [any DispatchSourceSignal] {
        [(SIGWINCH, Event.resize), (SIGINT, .quit), (SIGTERM, .quit), (SIGHUP, .quit)].map { number, event in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { sink.yield(event) }
            source.resume()
            return source
        }
    }

    /// Reads keys on a plain thread (blocking reads stay off the cooperative pool).
    private static func readKeys(_ session: TerminalSession, _ sink: AsyncStream<Event>.Continuation) -> KeyReader {
        let reader = KeyReader()
        Thread {
            var decoder = KeyDecoder()
            while !reader.isCancelled {
                let bytes = session.read()
                var keys = bytes.isEmpty ? decoder.flushEscape() : decoder.feed(bytes)
                if bytes == [0x1B] { keys = decoder.flushEscape() }
                if !keys.isEmpty { sink.yield(.keys(keys)) }
            }
        }.start()
        return reader
    }
}

/// Stops the key-reading thread.
final class KeyReader: @unchecked Sendable {
    // @unchecked: a single flag behind a lock.
    private let lock = NSLock()
    private var cancelled = false
    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}
