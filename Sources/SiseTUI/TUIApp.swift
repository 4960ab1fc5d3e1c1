import Foundation
import SiseCore
import SiseEngine
import SiseStore
import Synchronization

/// The running terminal UI: keys, board updates, resizes and signals become events; frames are
/// rendered as values and only their differences are written: at once after a key, and at most
/// 10 times a second as data arrives (the board's own cadence).
public final class TUIApp: Sendable {
    private let boards: ExchangeBoards
    private let favorites: any FavoritesRepository
    private let owner: String
    private let initial: TUIState
    /// Markets changed per board since the screen last placed them (never dropped).
    private let touched = TouchedMarkets()
    private let chartSource: @Sendable (Exchange, MarketID) async -> ([PricePoint], YearRange?)
    private let candleSource: @Sendable (Exchange, MarketID) async -> [Candle]
    private let depthSource: @Sendable (Exchange, MarketID) async -> DepthRead
    private let trendingSource: @Sendable () async -> Trending?
    private let rankingSource: @Sendable (RankingCurrency, Int) async -> RankingLoad?
    private let premium: PremiumFeed?
    private let globalPrices: GlobalPrices?
    private let wallets: WalletService?
    private let portfolio: PortfolioStore?
    /// The deemed prices the portfolio's tax line reads from 2027-01-01 00:00 KST on.
    private let deemed: DeemedPriceFill?
    /// What the connected exchange accounts hold (nil: none connected), read when the portfolio opens.
    private let accountsSource: @Sendable () async -> AccountHoldings?
    private let alerts: AlertStore?
    /// The running alert engine (a rule typed at the prompt is armed in it at once).
    private let engine = Mutex<AlertEngine?>(nil)
    /// The exchanges' 호가/체결 feeds (체결강도 alerts read their tapes).
    private let depthFeeds: [Exchange: DepthFeed]
    /// Where a firing goes beside the bell: the terminal's webhooks and chats (as `sise watch
    /// --alerts` sends them).
    private let deliver: @Sendable (AlertFiring) -> Void
    /// The time of day frames, loads and firings are stamped with (the composition root's).
    private let clock: WallClock
    /// What the fades and the frame pacing wait on.
    private let ticks: any MonotonicClock

    /// - Parameters:
    ///   - boards: every exchange's board (`e` cycles them, `c` compares them).
    ///   - chart: a week of prices for the detail screen (Upbit candles).
    ///   - trending: CoinGecko trending for `t` (nil when it cannot be had).
    public init(
        boards: ExchangeBoards,
        favorites: any FavoritesRepository,
        owner: String = "local",
        state: TUIState,
        chart: @escaping @Sendable (Exchange, MarketID) async -> ([PricePoint], YearRange?) = { _, _ in ([], nil) },
        trending: @escaping @Sendable () async -> Trending? = { nil },
        ranking: @escaping @Sendable (RankingCurrency, Int) async -> RankingLoad? = { _, _ in nil },
        premium: PremiumFeed? = nil,
        globalPrices: GlobalPrices? = nil,
        wallets: WalletService? = nil,
        portfolio: PortfolioStore? = nil,
        deemed: DeemedPriceFill? = nil,
        accounts: @escaping @Sendable () async -> AccountHoldings? = { nil },
        alerts: AlertStore? = nil,
        deliver: @escaping @Sendable (AlertFiring) -> Void = { _ in },
        depthFeeds: [Exchange: DepthFeed] = [:],
        candles: @escaping @Sendable (Exchange, MarketID) async -> [Candle] = { _, _ in [] },
        depth: @escaping @Sendable (Exchange, MarketID) async -> DepthRead = { _, _ in DepthRead(book: nil, tape: [], unreadable: true) },
        clock: WallClock = .system,
        ticks: any MonotonicClock = .system
    ) {
        self.clock = clock
        self.ticks = ticks
        candleSource = candles
        depthSource = depth
        self.portfolio = portfolio
        self.deemed = deemed
        accountsSource = accounts
        self.alerts = alerts
        self.deliver = deliver
        self.depthFeeds = depthFeeds
        self.boards = boards
        self.favorites = favorites
        self.owner = owner
        initial = state
        chartSource = chart
        trendingSource = trending
        rankingSource = ranking
        self.premium = premium
        self.globalPrices = globalPrices
        self.wallets = wallets
    }

    /// Runs until `q` (or a signal). The terminal is restored on every way out.
    public func run(session: TerminalSession) async throws {
        try session.enter()
        defer { session.restore() }
        let (events, sink) = AsyncStream.makeStream(of: TUIEvent.self, bufferingPolicy: .bufferingNewest(256))
        let signals = TerminalInput.watchSignals(sink)
        defer { for signal in signals { signal.cancel() } }
        let reader = TerminalInput.readKeys(session, sink)
        defer { reader.cancel() }
        // Loads the screens ask for (a chart, trending), run beside the event loop.
        let (loads, loader) = AsyncStream.makeStream(of: (@Sendable () async -> TUIEvent).self, bufferingPolicy: .bufferingNewest(64))
        let (touched, ticks) = (self.touched, self.ticks)
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
                // The terminal's alerts fire here as they do on the server: the bell rings, and
                // the firing goes to the terminal's destinations.
                let deliver = self.deliver
                let engine = AlertEngine(
                    boards: boards,
                    depth: depthFeeds,
                    store: alerts,
                    premium: premium,
                    globalPrices: globalPrices,
                    // Favorites starred here or by `sise favorites` are followed within seconds.
                    lists: portfolio.map { WatchLists(favorites: favorites, portfolio: $0) },
                    listRefresh: 5,
                    owner: owner,
                    clock: clock,
                    pace: ticks
                ) {
                    sink.yield(.alert($0))
                    deliver($0)
                }
                self.engine.withLock { $0 = engine }
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
                    try? await ticks.sleep(for: .milliseconds(250))
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

    /// The event loop: the reducer decides, this carries out its effects and draws a frame at
    /// most every `FramePacer.interval`. Returns on `q` or a signal.
    private func handle(
        _ events: AsyncStream<TUIEvent>,
        session: TerminalSession,
        load: (@escaping @Sendable () async -> TUIEvent) -> Void
    ) async {
        var model = TUIModel(state: initial)
        model.state.favorites = await favoriteMarkets(of: model.state.exchange)
        model.state.favoriteCoins = await favoriteCoins()
        // The screen watches its exchange; the others wake when switched to or compared.
        var watched = model.watched
        boards[watched]?.viewerArrived()
        defer { boards[watched]?.viewerLeft() }
        let renderer = TUIRenderer()
        var previous: ScreenFrame?
        /// The board's rows in the screen's order, kept between frames: only the markets
        /// changed since the last frame (`touched`) are placed again.
        var viewOrder: ViewOrder?
        var pacer = FramePacer()
        let boards = boards
        for await event in events {
            let now = clock.now
            let size = session.size
            if case .frameDue = event { pacer.woke() }
            let world = TUIWorld(
                now: now,
                height: size.height,
                premium: (premium?.inputs ?? .none).withoutStandIns,
                rows: { state in state.query.apply((boards[state.exchange] ?? boards.defaultBoard).snapshot.rows.values, premium: state.premium) },
                ranked: { state in state.rankingPage(listings: boards.koreanListings)?.rows ?? [] }
            )
            for effect in TUIReducer.reduce(&model, event, world) {
                switch effect {
                case .quit: return
                case .watch(let from, let to):
                    boards[from]?.viewerLeft()
                    boards[to]?.viewerArrived()
                    watched = to
                default: perform(effect, session: session, load: load)
                }
            }
            guard model.dirty else { continue }
            switch pacer.decide(urgent: model.urgent, now: now) {
            case .hold: continue
            case .wake(let wait):
                let ticks = ticks
                load {
                    try? await ticks.sleep(for: .milliseconds(wait))
                    return .frameDue
                }
                continue
            case .draw: break
            }
            if model.whole {
                previous = nil
                viewOrder = nil
            }
            let frame = draw(&model.state, &viewOrder, size: size, now: now, renderer: renderer, transactions: model.transactions)
            let output = FrameDiff.render(from: previous, to: frame)
            if !output.isEmpty { session.write(output) }
            previous = frame
            pacer.drawn(at: clock.now)
            model.drawn()
        }
    }

    /// The frame for `state`. The order is brought up to date once per frame (at most 10 a
    /// second), not per event, and only the rows that changed since the last frame are placed again.
    private func draw(
        _ state: inout TUIState,
        _ viewOrder: inout ViewOrder?,
        size: (width: Int, height: Int),
        now: Int64,
        renderer: TUIRenderer,
        transactions: [PortfolioTransaction]
    ) -> ScreenFrame {
        let board = board(state)
        state.premium = (premium?.inputs ?? .none).withoutStandIns
        if let wallets { state.wallets = wallets.report(state.exchange) }
        state.tether = premium.flatMap { feed in
            let snapshot = board.snapshot
            let usdt = TetherQuotes.usdt
            let quote = USDTQuote(exchange: state.exchange, price: snapshot.rows[usdt]?.ticker.price, at: snapshot.confirmedAt(usdt))
            return TetherPremium.premium(quote, official: feed.status.official.quote, now: now)
        }
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
        let matrix = state.screen == .matrix ? matrixRows(now: now, language: state.language) : ([], "-")
        return renderer.render(
            state,
            snapshot: board.snapshot,
            rows: rows,
            width: size.width,
            height: size.height,
            now: now,
            compared: compared,
            ranking: rankingPage,
            matrix: matrix
        )
    }

    /// The premium matrix from every exchange's board (each woken while the screen shows) and the
    /// global venues' prices, at the feed's rate.
    private func matrixRows(now: Int64, language: Language) -> (rows: [PremiumMatrix.Row], rate: String) {
        guard let premium, let globalPrices else { return ([], UIText.premiumUnavailable(language, ["reason": "off"])) }
        var korean: [Exchange: [String: PremiumMatrix.Leg]] = [:]
        for (exchange, board) in boards.all {
            board.touch()
            let snapshot = board.snapshot
            var legs: [String: PremiumMatrix.Leg] = [:]
            for row in snapshot.rows.values where row.id.quote == "KRW" {
                guard let at = snapshot.confirmedAt(row.id) else { continue }
                legs[row.id.base] = PremiumMatrix.Leg(price: row.ticker.price, at: at, tradeValue24h: row.ticker.tradeValue24h)
            }
            korean[exchange] = legs
        }
        let decision = premium.status.decision
        let rows = PremiumMatrix.rows(korean: korean, venues: globalPrices.quotes(), fx: decision.quote, now: now)
        let rate = [
            UIText.fxLabel(language) + " " + (decision.quote?.source.displayName(language) ?? "-") + " " + decision.rateText,
            decision.fallbackText(language),
        ].compactMap { $0 }.joined(separator: " · ")
        return (rows, rate)
    }

    /// Carries out an effect that reads or writes the world: its answer comes back as an event.
    private func perform(_ effect: TUIEffect, session: TerminalSession, load: (@escaping @Sendable () async -> TUIEvent) -> Void) {
        switch effect {
        case .quit, .watch: break
        case .bell: session.write("\u{07}")
        case .loadFavorites(let exchange): load { .favoriteMarkets(exchange, await self.favoriteMarkets(of: exchange)) }
        case .storeFavorite(let change): load { .favoriteStored(change, stored: await self.store(change)) }
        case .loadChart(let exchange, let id):
            let source = chartSource
            load {
                let (points, year) = await source(exchange, id)
                return .chart(id, points, year)
            }
        case .loadCandles(let exchange, let id):
            let source = candleSource
            load { .candles(id, await source(exchange, id)) }
        case .loadDepth(let exchange, let id):
            let (source, clock) = (depthSource, clock)
            load {
                let read = await source(exchange, id)
                return .depth(DepthLoad(market: id, read: read, at: clock.now))
            }
        case .loadTrending:
            let source = trendingSource
            load { .trending(await source()) }
        case .loadRanking(let request):
            let source = rankingSource
            load { .ranking(await source(request.currency, request.blocks)) }
        case .loadPortfolio:
            let (store, owner, accounts) = (portfolio, owner, accountsSource)
            load { .portfolio(try? await store?.transactions(owner: owner)) }
            load { .accounts(await accounts()) }
        case .loadTax(let transactions):
            let (boards, deemed, clock, language) = (boards, deemed, clock, initial.language)
            load { .tax(await Self.taxLine(transactions, boards: boards, deemed: deemed, now: clock.now, language: language)) }
        case .addAlert(let text, let market, let exchange):
            load {
                let (words, rule) = await self.addAlert(text, market: market, exchange: exchange)
                return .alertStored(words, rule)
            }
        case .armAlert(let rule):
            let engine = engine.withLock { $0 }
            Task { await engine?.upsert(rule) }
        }
    }

    /// Keeps an alert typed at the prompt, checked as every face checks it (the words, the list or
    /// holding it needs, the market on the board): the words that say so, and the rule to arm.
    private func addAlert(_ text: String, market: MarketID?, exchange: Exchange) async -> (String, AlertRule?) {
        let language = initial.language
        guard let alerts else { return (UIText.storeFailed(language, ["reason": "alerts"]), nil) }
        let rule: AlertRule
        do {
            rule = try AlertPhrase.input(text, market: market, exchange: exchange).rule(
                id: UUID().uuidString.lowercased(),
                owner: owner,
                now: clock.now
            )
        } catch {
            return (error.message(language), nil)
        }
        if let portfolio, let problem = try? await AlertTargetCheck(lists: WatchLists(favorites: favorites, portfolio: portfolio)).problem(rule) {
            return (problem(language), nil)
        }
        if rule.target == nil, let board = boards[rule.exchange], board.hasData {
            do { try MarketListing(exchange: rule.exchange, listed: board.snapshot.rows.keys).check(rule.market) } catch {
                return (error.message(language), nil)
            }
        }
        do { try await alerts.add(rule) } catch { return (UIText.storeFailed(language, ["reason": "\(error)"]), nil) }
        return (UIText.alertAddedAs(language, ["rule": rule.describe(language)]), rule)
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

    /// Stores a star set or cleared; whether the store took it.
    private func store(_ change: FavoriteChange) async -> Bool {
        do {
            if change.on {
                try await favorites.add(owner: owner, item: change.key)
            } else {
                try await favorites.remove(owner: owner, item: change.key)
            }
            return true
        } catch {
            return false
        }
    }
}
