import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseStore
import Synchronization

/// Fans the live boards (one per exchange) out to browsers. Each batch from an engine is turned
/// into one computation per distinct view of that exchange (shared by every client showing it)
/// and merged into each client's outbox; rows are encoded once per change and language.
final class BoardSocketHub: Service, Sendable {
    let boards: ExchangeBoards
    let favorites: any FavoritesRepository
    let portfolioPush: PortfolioPush
    /// 호가 and 체결 for the pages on a market's page.
    private let depth = DepthPages()
    private let demo: Bool
    private let premium: PremiumFeed?
    /// The 김프 column against the venue a view chose (nil: Binance's, from `premium`).
    let sources: PremiumSources?
    private let logger: Logger
    let clients = Mutex(PageRegistry())
    /// Encoded rows per exchange and 김프 venue (a row's text holds its premium).
    private let fragments = Mutex<[FragmentKey: RowFragments]>([:])
    /// Each distinct view's rows in order, kept between batches (`ViewOrder`).
    private let viewOrders = Mutex<[BoardClientView: ViewOrder]>([:])
    /// One publication at a time: the board's batches and the premium's updates both publish,
    /// and an order computed from older inputs must never arrive after rows from newer ones.
    /// It holds the views' snapshots made since the last publication (`ViewSnapshots`).
    private let publishing = Mutex(ViewSnapshots())
    static let heartbeatInterval = Duration.seconds(15)
    static let staleStatusInterval = Duration.seconds(5)
    /// The wall clock heartbeats and statuses are stamped with.
    let clock: WallClock
    /// Distinct views (sort, filter, search, language) computed per batch, at most.
    static let maxDistinctViews = 2_000

    init(
        boards: ExchangeBoards,
        favorites: any FavoritesRepository,
        portfolio: PortfolioStore,
        demo: Bool,
        premium: PremiumFeed? = nil,
        sources: PremiumSources? = nil,
        clock: WallClock = .system,
        logger: Logger
    ) {
        self.sources = sources
        self.clock = clock
        self.boards = boards
        self.favorites = favorites
        portfolioPush = PortfolioPush(store: portfolio, boards: boards)
        self.demo = demo
        self.premium = premium
        self.logger = logger
    }

    /// A browser opened `/ws`: it is a viewer (of Upbit until its view says otherwise), so that
    /// upstream feed runs (or wakes).
    func add(_ client: BoardClient) {
        clients.withLock { $0.add(client) }
        boards[client.watching]?.viewerArrived()
    }

    func remove(_ page: BoardClient) {
        depth.forget(page)
        let (client, lastOfView) = clients.withLock { registry -> (BoardClient?, BoardClientView?) in
            let client = registry.remove(page)
            return (client, client?.view.flatMap { registry.groups[$0] == nil ? $0 : nil })
        }
        guard let client else { return }
        // The last page of a view takes its kept order along (an exchange nobody watches any
        // more publishes nothing that would sweep it).
        if let lastOfView { viewOrders.withLock { _ = $0.removeValue(forKey: lastOfView) } }
        boards[client.watching]?.viewerLeft()
    }

    /// A browser chose (or changed) its view: answer with a full snapshot of it.
    func setView(_ client: BoardClient, parameters: ViewParameters, language: Language) async {
        guard let board = boards[parameters.exchange] else {
            client.reject(APIError.notFound(.missingExchange, ["name": parameters.exchange.displayName]), language)
            return
        }
        // Its viewers move with it: the exchange it left may idle, the one it chose wakes.
        let previous = client.watch(parameters.exchange)
        if previous != parameters.exchange {
            boards[previous]?.viewerLeft()
            board.viewerArrived()
        }
        // Before the first board: say where things stand now, and the snapshot follows once
        // there is one (an empty snapshot would read as "no markets").
        if !board.hasData {
            client.post(rows: [], order: nil, status: statusJSON(board.snapshot.status, language), at: clock.now)
            while !(await board.waitForData(upTo: .seconds(5))) {
                if Task.isCancelled { return }
                client.post(rows: [], order: nil, status: statusJSON(board.snapshot.status, language), at: clock.now)
            }
        }
        var view = BoardClientView(parameters: parameters, language: language, favorites: nil)
        // Every distinct view costs a computation per batch: their number is bounded.
        if !clients.withLock({ $0.admits(view, for: client, limit: Self.maxDistinctViews) }) {
            client.reject(APIError(status: .serviceUnavailable, code: "too_many_views", RefusalText.tooManyViews), language)
            return
        }
        if parameters.favoritesOnly {
            view.favorites =
                (try? await favorites.list(owner: client.deviceID)).map { keys in
                    Set(
                        keys.compactMap { key -> MarketID? in
                            guard case .market(let code, let on)? = FavoriteItem(key), on == parameters.exchange else { return nil }
                            return MarketID(code)
                        }
                    )
                } ?? []
        }
        // Between publications: a batch published after the snapshot was made but before the
        // page joined its view's group would never reach the page, and a row it changed would
        // stay old on the page while later orders placed it by its new figures.
        publishing.withLock { snapshots in
            // A page showing a window of ranks gets its rows alone; every other page of the
            // view, the view's one snapshot.
            let snapshot =
                client.window == nil
                ? snapshots.message(for: view, now: clock.now) { PageMessage(snapshotMessage(view)) }
                : PageMessage(snapshotMessage(view, for: client))
            // Under the registry's lock: the page's group and its outbox change together, so two
            // view changes of one page racing each other cannot leave it in one group showing another.
            clients.withLock { registry in
                registry.show(view, for: client)
                client.setView(view, snapshot: snapshot)
            }
        }
    }

    /// A page's socket drained: what merged meanwhile is written (nothing when it has left).
    func schedule(_ page: ObjectIdentifier) {
        clients.withLock { $0.pages[page] }?.schedule()
    }

    /// Open `/ws` connections.
    var clientCount: Int { clients.withLock { $0.count } }

    /// Distinct views the connected pages show (each costs one computation per batch).
    var viewCount: Int { clients.withLock { $0.viewCount } }

    func attach(_ push: DepthPush) {
        depth.attach(push)
    }

    /// A page opened a market's page (or left it: no market): see `DepthPages.watch`.
    func watchDepth(_ client: BoardClient, exchange: String?, market: String?, language: Language) async {
        await depth.watch(client, exchange: exchange, market: market, language: language)
    }

    // MARK: - Service

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.follow() }
            group.addTask { await self.tick() }
            group.addTask { await self.pushPortfolios() }
            group.addTask { await self.depth.run() }
            if let premium { group.addTask { await self.followPremium(premium) } }
            if let sources { group.addTask { await self.followVenues(sources) } }
            try? await gracefulShutdown()
            group.cancelAll()
        }
        // Open pages are closed by their WebSocket handlers as the server shuts down (a close
        // frame, then the browser's answer), not from here.
    }

    private func follow() async {
        await withDiscardingTaskGroup { group in
            for (exchange, board) in boards.all {
                group.addTask { await self.follow(exchange, board) }
            }
        }
    }

    private func follow(_ exchange: Exchange, _ board: LiveBoard) async {
        for await update in board.updates() {
            if Task.isCancelled { return }
            switch update {
            case .snapshot:
                break
            case .changes(let rows):
                publish(exchange, changed: Set(rows.map(\.id)), status: nil, invalidate: rows.map(\.id))
            case .removed(let ids):
                publish(exchange, changed: [], status: nil, invalidate: ids)
            case .status(let status):
                publish(exchange, changed: [], status: status)
            }
        }
    }

    /// Heartbeats, and status frames with growing ages while the board is not live.
    private func tick() async {
        var sinceHeartbeat = Duration.zero
        var trim = MemoryTrim()
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.staleStatusInterval)
            sinceHeartbeat += Self.staleStatusInterval
            _ = trim.pages(clientCount)
            for (exchange, board) in boards.all {
                let status = board.snapshot.status
                if status.state != .live { publish(exchange, changed: [], status: status) }
            }
            if sinceHeartbeat >= Self.heartbeatInterval {
                sinceHeartbeat = .zero
                let now = clock.now
                let everyone = clients.withLock { Array($0.pages.values) }
                for client in everyone { client.heartbeat(at: now, now: false) }
                BoardClient.deliver(everyone)
            }
        }
    }

    /// One computation per distinct view; each client of it gets the changed rows it shows and
    /// the order when it moved.
    /// - Parameter invalidate: rows whose encoded fragments are out of date — forgotten under the
    ///   same lock, so no concurrent publication can cache an old encoding after they changed.
    /// - Parameter venues: only the views whose 김프 is against one of these (nil: every view).
    func publish(
        _ exchange: Exchange,
        changed: Set<MarketID>,
        status: ConnectivityStatus?,
        invalidate: [MarketID] = [],
        venues: Set<GlobalVenue>? = nil
    ) {
        publishing.withLock { snapshots in
            snapshots.clear()
            if !invalidate.isEmpty {
                fragments.withLock { all in
                    for venue in venues ?? Set(GlobalVenue.allCases) { all[FragmentKey(exchange, venue)]?.invalidate(invalidate) }
                }
            }
            publishLocked(exchange, changed: changed, status: status, touched: changed.union(invalidate), venues: venues)
        }
    }

    /// The premium's inputs of a view (its exchange, its venue).
    private func inputs(_ parameters: ViewParameters) -> PremiumInputs {
        sources?.inputs(parameters.venue, exchange: parameters.exchange) ?? premium?.inputs ?? .none
    }

    private func publishLocked(
        _ exchange: Exchange,
        changed: Set<MarketID>,
        status: ConnectivityStatus?,
        touched: Set<MarketID>,
        venues: Set<GlobalVenue>?
    ) {
        let groups = clients.withLock { $0.groups }
        let byView = groups.filter { $0.key.parameters.exchange == exchange && venues?.contains($0.key.parameters.venue) != false }
        guard !byView.isEmpty, let board = boards[exchange] else { return }
        let rows = board.snapshot.rows
        var inputsByVenue: [GlobalVenue: PremiumInputs] = [:]
        var statusText: [Language: String] = [:]
        var writes = PendingWrites()
        defer { writes.start() }
        let at = clock.now
        for (view, members) in byView {
            let venue = view.parameters.venue
            let inputs = inputsByVenue[venue] ?? inputs(view.parameters)
            inputsByVenue[venue] = inputs
            let key = FragmentKey(exchange, venue)
            let (ordered, moved) = viewOrders.withLock { orders in
                let moved = orders[view, default: ViewOrder(query: view.query)].update(rows, touched: touched, premium: inputs)
                return (orders[view], moved)
            }
            guard let ordered else { continue }
            let order = ordered.codes
            let shown = ordered.rows(among: ordered.refreshed.isEmpty ? changed : changed.union(ordered.refreshed))
            let pieces = fragments.withLock { all in
                shown.map { ($0.id.code, all[key, default: RowFragments()].fragment($0, view.language, premium: inputs.premium($0))) }
            }
            var statusMessage: String?
            if let status {
                statusMessage = statusText[view.language] ?? statusJSON(status, view.language)
                statusText[view.language] = statusMessage
            }
            guard !pieces.isEmpty || moved || statusMessage != nil else { continue }
            let newOrder = moved ? BoardSocketMessage.Order(order) : nil
            let shared =
                pieces.isEmpty && !moved
                ? nil
                : PageMessage(BoardSocketMessage.patch(rows: pieces.map(\.1), order: newOrder, at: at))
            for lane in members.lanes {
                for client in lane.pages {
                    guard client.hasWindow else {
                        client.post(rows: pieces, order: newOrder, status: statusMessage, shared: shared, at: at, now: false)
                        continue
                    }
                    // A page showing a window of ranks: full rows only inside it (those that moved
                    // into it included), the order of all.
                    let (inWindow, entering) = client.entering(order)
                    var mine = pieces.filter { inWindow.contains($0.0) }
                    let sent = Set(mine.map(\.0))
                    let missing = entering.filter { !sent.contains($0) }
                    if !missing.isEmpty {
                        mine += fragments.withLock { all in
                            missing.compactMap { code in
                                MarketID(code).flatMap(ordered.row).map {
                                    (code, all[key, default: RowFragments()].fragment($0, view.language, premium: inputs.premium($0)))
                                }
                            }
                        }
                    }
                    client.post(rows: mine, order: newOrder, status: statusMessage, at: at, now: false)
                }
            }
            writes.add(members)
        }
        guard venues == nil else { return }
        viewOrders.withLock { orders in
            for gone in orders.keys.filter({ $0.parameters.exchange == exchange && byView[$0] == nil }) { orders[gone] = nil }
        }
    }

    /// A page scrolled: it now shows these ranks; the rows entering them follow at once.
    func setWindow(_ client: BoardClient, _ range: Range<Int>?) {
        client.setWindow(range)
        guard range != nil, let view = client.view else { return }
        let exchange = view.parameters.exchange
        let inputs = inputs(view.parameters)
        let key = FragmentKey(exchange, view.parameters.venue)
        let ordered =
            viewOrders.withLock { $0[view]?.rows }
            ?? view.query.apply((boards[exchange] ?? boards.defaultBoard).snapshot.rows.values, premium: inputs)
        let (_, entering) = client.entering(ordered.map(\.id.code))
        guard !entering.isEmpty else { return }
        let wanted = Set(entering)
        let rows = fragments.withLock { all in
            ordered.filter { wanted.contains($0.id.code) }
                .map { ($0.id.code, all[key, default: RowFragments()].fragment($0, view.language, premium: inputs.premium($0))) }
        }
        client.post(rows: rows, order: nil, status: nil, at: clock.now)
    }

    /// The full view for a page: every row, or only those in its window (with the order of all).
    /// The rows are the view's own (`ViewOrder`) — the values its other pages were sent and its
    /// next orders are made from — not the board's newest, which a batch on its way may still
    /// tell of. Called between publications.
    private func snapshotMessage(_ view: BoardClientView, for client: BoardClient? = nil) -> String {
        let exchange = view.parameters.exchange
        let snapshot = (boards[exchange] ?? boards.defaultBoard).snapshot
        let inputs = inputs(view.parameters)
        let key = FragmentKey(exchange, view.parameters.venue)
        let ordered = viewOrders.withLock { orders -> [MarketRow] in
            if let existing = orders[view] { return existing.rows }
            var fresh = ViewOrder(query: view.query)
            fresh.update(snapshot.rows, touched: [], premium: inputs)
            orders[view] = fresh
            return fresh.rows
        }
        let shown: [MarketRow]
        if let client, client.window != nil {
            let (inWindow, _) = client.entering(ordered.map(\.id.code), reset: true)
            shown = ordered.filter { inWindow.contains($0.id.code) }
        } else {
            shown = ordered
        }
        let rows = fragments.withLock { all in
            shown.map { all[key, default: RowFragments()].fragment($0, view.language, premium: inputs.premium($0)) }
        }
        let echo = BoardSocketMessage.echo(view.parameters, language: view.language)
        do {
            return try BoardSocketMessage.snapshot(
                demo: demo,
                view: echo,
                rows: rows,
                order: BoardSocketMessage.Order(ordered.map(\.id.code)),
                status: statusJSON(snapshot.status, view.language)
            )
        } catch {
            logger.error("a snapshot could not be encoded")
            return BoardClient.errorMessage(.internalFailure, view.language)
        }
    }

    private func statusJSON(_ status: ConnectivityStatus, _ language: Language) -> String {
        let message = BoardSocketMessage.Status(demo: demo, exchanges: [status.exchange: StatusController.exchange(status, language, now: clock.now)])
        return (try? BoardSocketMessage.encode(message)) ?? #"{"type":"status","demo":false,"exchanges":{}}"#
    }
}
