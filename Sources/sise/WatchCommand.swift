import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise watch`: live updates, one line per change, until stopped.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stream live price changes (the exchange's WebSocket, REST polling while it is down)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var venue: ExchangeOption
    @OptionGroup var feed: LiveFeedOptions
    @OptionGroup var premiumOptions: PremiumOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Argument(help: "Only these symbols (BTC) or markets (KRW-BTC); default every market of --quote.")
    var markets: [String] = []

    @Option(help: "Quote market: KRW, BTC or USDT.")
    var quote: String = "KRW"

    @Flag(help: "NDJSON: one object per line, flushed as written.")
    var json = false

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(help: "Stop after this many ticker lines (alert lines with --alerts).")
    var count: Int?

    @Flag(
        help:
            "Print the terminal's alerts (sise alerts add) as they fire, instead of tickers; NDJSON {\"type\":\"alert\",…} with --json. They are sent to the destinations of sise alerts webhook too."
    )
    var alerts = false

    @Option(
        name: .customLong("events-every"),
        help:
            "With --alerts and change alerts on (sise alerts changes): seconds between two looks at the exchanges' listings, flags and wallets (1-3600; default 60)."
    )
    var eventsEvery: Int = 60
    @Flag(help: "With --alerts: let webhooks and chats reach loopback and private addresses.")
    var allowPrivateWebhooks = false

    @Option(name: .customLong("orderbook"), help: "Stream this market's order book as it changes (NDJSON {\"type\":\"orderbook\",…} with --json).")
    var orderbookMarket: String?

    @OptionGroup var storage: StoreOptions

    func validate() throws {
        guard let parsed = QuoteCurrency(code: quote) else { throw ValidationError("--quote must be KRW, BTC or USDT, not '\(quote)'.") }
        try venue.check(quote: parsed, global.language)
        if let duration, !(duration > 0 && duration <= 31_536_000) { throw ValidationError("--duration must be between 0 and 31536000 seconds.") }
        if let count, count <= 0 { throw ValidationError("--count must be positive.") }
        guard (1...3_600).contains(eventsEvery) else { throw ValidationError("--events-every must be 1–3600 seconds.") }
        for market in markets where parse(market) == nil {
            throw ValidationError(ListingProblem.notAMarket(market).message(global.language))
        }
    }

    private func parse(_ text: String) -> MarketID? {
        QuoteCurrency(code: quote).flatMap { MarketID.resolve(text, quote: $0) }
    }

    func run() async throws {
        if let orderbookMarket {
            return try await WatchOrderbook(
                global: global,
                exchange: venue.exchange,
                market: orderbookMarket,
                json: json,
                count: count,
                duration: duration.map { Duration.milliseconds(Int64($0 * 1_000)) },
                silence: feed.silenceDuration
            ).run()
        }
        let filter = Set(markets.compactMap(parse))
        var quotes = [QuoteCurrency(code: quote) ?? .krw]
        for id in filter { if let q = QuoteCurrency(code: id.quote), !quotes.contains(q) { quotes.append(q) } }
        var logger = Logger(label: "sise.watch")
        logger.logLevel = .error
        let exchange = venue.exchange
        var exchanges = [exchange]
        var alertStore: AlertStore?
        var wantsPremium = false
        var wantsVenues = false
        var changes: ChangeAlerts?
        var database: AppDatabase?
        if alerts {
            let opened = try await Root.store(global.settings, storage)
            database = opened
            let store = AlertStore(database: opened)
            alertStore = store
            let wanted = try await ChangeAlertStore(database: opened).settings(owner: LocalData.owner)
            if ChangeAlerts.Topic.allCases.contains(where: wanted.wants) { changes = wanted }
            let rules = try await store.rules(owner: LocalData.owner).filter(\.enabled)
            wantsPremium = rules.contains(where: \.isPremium)
            wantsVenues = rules.contains { ($0.premiumVenue ?? .binance) != .binance }
            for rule in rules where !exchanges.contains(rule.exchange) { exchanges.append(rule.exchange) }
            // The portfolio's total is valued on every exchange it holds something on.
            if rules.contains(where: { $0.target == .portfolio }) {
                let held = try await WatchLists(database: opened).positions(owner: LocalData.owner) ?? []
                for position in held where position.quantity > 0 && !exchanges.contains(position.exchange) { exchanges.append(position.exchange) }
            }
            // A wide rule's markets are its list's: their quotes as the list stands now, KRW always.
            var ruleQuotes = Set(rules.compactMap { $0.target == nil ? QuoteCurrency(code: $0.market.quote) : .krw })
            let lists = WatchLists(database: opened)
            for rule in rules {
                guard let target = rule.target else { continue }
                let listed = try await lists.markets(AlertBook.ListKey(owner: rule.owner, target: target, exchange: rule.exchange))
                ruleQuotes.formUnion(listed.compactMap { QuoteCurrency(code: $0.quote) })
            }
            quotes = Array(ruleQuotes.union(quotes)).sorted { $0.rawValue < $1.rawValue }
        }
        let settings = global.settings
        let root = try await Root.live(settings, demo: nil, logger: logger)
        let upstreams = try LiveUpstreams.build(
            root,
            coinGecko: gecko,
            exchanges: exchanges,
            primary: .default,
            board: .init(exchange: exchange, quotes: quotes),
            silence: feed.silenceDuration,
            logger: logger
        )
        guard let board = upstreams.boards[exchange] else { throw CLIFailure.usage("sise: no \(exchange.rawValue) board") }
        let printer = WatchPrinter(language: global.language, json: json, color: global.useColor)
        let limit = duration.map { Duration.milliseconds(Int64($0 * 1_000)) }
        // KRW rows carry the kimchi premium and premium rules need it: the same live lookup as the
        // TUI's and the server's (Binance, CoinGecko where Binance has no price, the rate).
        let coinInfo = CoinInfoService(api: upstreams.coinGecko, cache: NoCache(), now: root.clock.milliseconds)
        let needsPremium = wantsPremium || quotes.contains(.krw) && !alerts
        let premiumSettings = try PremiumSettings(premiumOptions, settings.sources)
        let premium = needsPremium ? upstreams.premiumFeed(premiumSettings, coinInfo: coinInfo, logger: logger) : nil
        // Premium rules against OKX or Bybit read the matrix's cells: those venues are polled too.
        let globalPrices = wantsVenues ? premium.map { upstreams.globalPrices(premiumSettings, feed: $0, logger: logger) } : nil
        let watcher: any Service =
            if let alertStore {
                AlertWatchService(
                    boards: upstreams.boards,
                    depthFeeds: upstreams.depthFeeds,
                    store: alertStore,
                    premium: premium,
                    globalPrices: globalPrices,
                    printer: printer,
                    count: count,
                    duration: limit,
                    changes: changes == nil
                        ? nil
                        : database.map { database in
                            ChangeWatch(
                                // Every exchange's news, not only the boards' exchanges.
                                apis: Dictionary(uniqueKeysWithValues: Exchange.allCases.map { ($0, root.api($0)) }),
                                wallets: WalletService(
                                    feeds: root.walletFeeds(),
                                    interval: .seconds(eventsEvery),
                                    clock: root.clock,
                                    pace: root.ticks,
                                    logger: logger
                                ),
                                events: MarketEventStore(database: database),
                                audience: ChangeAlertStore(database: database),
                                interval: .seconds(eventsEvery)
                            )
                        },
                    webhooks: WebhookDispatcher(
                        store: alertStore,
                        poster: Root.poster(allowPrivate: allowPrivateWebhooks),
                        chats: try settings.chats(),
                        clock: root.clock,
                        logger: logger
                    ),
                    lists: database.map(WatchLists.init(database:)),
                    clock: root.clock,
                    pace: root.ticks,
                    logger: logger
                )
            } else {
                WatchService(board: board, premium: premium, printer: printer, filter: filter, count: count, duration: limit)
            }
        let group = ServiceGroup(
            configuration: .init(
                services: (upstreams.services + (premium.map { [coinInfo, $0] } ?? []) + (globalPrices.map { [$0] } ?? [])).map { .init(service: $0) }
                    + [.init(service: watcher, successTerminationBehavior: .gracefullyShutdownGroup)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        // A watch is a viewer of its board from before the board starts: a board that starts
        // idle (every exchange but the default) would otherwise never connect for it, or say
        // "idle" first.
        try await board.viewing { try await group.run() }
    }
}

/// Prints the board's updates until the count or duration is reached.
struct WatchService: Service {
    let board: LiveBoard
    /// The premium's live inputs (KRW boards).
    let premium: PremiumFeed?
    let printer: WatchPrinter
    let filter: Set<MarketID>
    let count: Int?
    let duration: Duration?

    func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.printUpdates() }
            if let duration { group.addTask { try await Task.sleep(for: duration) } }
            group.addTask { try await gracefulShutdown() }
            try await group.next()
            group.cancelAll()
        }
    }

    private func printUpdates() async throws {
        var printed = 0
        var lastState: Connectivity?
        for await update in board.updates() {
            switch update {
            case .snapshot(let snapshot):
                printer.status(snapshot.status)
                lastState = snapshot.status.state
            case .status(let status):
                if status.state != lastState { printer.status(status) }
                lastState = status.state
            case .changes(let rows):
                for row in rows where filter.isEmpty || filter.contains(row.id) {
                    printer.ticker(row, premium: premium?.inputs.withoutStandIns.premium(row))
                    printed += 1
                    if let count, printed >= count { return }
                }
            case .removed:
                break
            }
        }
    }
}
