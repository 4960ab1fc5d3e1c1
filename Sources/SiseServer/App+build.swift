import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// Builds the HTTP application of `sise serve` from what the composition root hands it.
public enum SiseServerApp {
    /// Connections the listening socket takes per look (see `onServerRunning`).
    static let acceptsPerRead: UInt = 64

    /// Builds the application; `onReady` gets the bound port once it accepts connections.
    public static func build(
        _ configuration: ServerConfiguration,
        dependencies: ServerDependencies,
        logger: Logger = Logger(label: "sise.serve"),
        onReady: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let database = dependencies.database
        let boards = dependencies.boards
        let favorites = StoredFavorites(database: database, clock: dependencies.clock)
        let devices = DeviceCleanup(registry: DeviceRegistry(database: database), logger: logger)
        let portfolio = PortfolioStore(database: database, clock: dependencies.clock)
        // The 김프 column against the venue a page chose (Binance's needs nothing more).
        let sources = dependencies.globalPrices.map {
            PremiumSources(boards: boards, feed: dependencies.premium, global: $0, clock: dependencies.clock)
        }
        let hub = BoardSocketHub(
            boards: boards,
            favorites: favorites,
            portfolio: portfolio,
            demo: configuration.demo,
            premium: dependencies.premium,
            sources: sources,
            clock: dependencies.clock,
            logger: logger
        )
        // Alerts: evaluated on every tick, told to the owner's pages and webhooks.
        let alertStore = AlertStore(database: database)
        let poster = dependencies.poster
        let vapid = try await PushKey.load(from: ServerKeys(database: database, clock: dependencies.clock), subject: configuration.pushSubject)
        let webhooks = WebhookDispatcher(
            store: alertStore,
            poster: poster,
            retryDelays: configuration.webhookRetryDelays,
            lease: configuration.deliveryLease,
            vapid: vapid,
            chats: configuration.chats,
            clock: dependencies.clock,
            logger: logger
        )
        let watchLists = WatchLists(favorites: favorites, portfolio: portfolio)
        let alerts = AlertEngine(
            boards: boards,
            depth: dependencies.depthFeeds,
            store: alertStore,
            premium: dependencies.premium,
            globalPrices: dependencies.globalPrices,
            lists: watchLists,
            clock: dependencies.clock,
            pace: dependencies.ticks,
            logger: logger
        ) { firing in
            hub.notify(firing.owner, message: JSONText.encode(firing))
            webhooks.enqueue(firing)
        }
        // Pages on this replica are told at once; the other replicas through the database.
        let changes = ChangeFeed(database: database)
        // …and wide alert rules follow the lists as they change.
        let favoritesChanged: @Sendable (String) async -> Void = { owner in
            await hub.favoritesChanged(owner)
            await changes.publish(.favorites, owner: owner)
            await alerts.listsChanged(owner: owner)
        }
        let portfolioChanged: @Sendable (String) async -> Void = { owner in
            await hub.portfolioChanged(owner)
            await changes.publish(.portfolio, owner: owner)
            await alerts.listsChanged(owner: owner)
        }
        // Throttle and rate-limit counts: in the store when replicas share one (PostgreSQL), so
        // a budget is one across them; in this process otherwise.
        let tallies: any TallyBook =
            database.dialect == .postgres
            ? StoreTallies(store: ThrottleTallies(database: database), fallback: MemoryTallies(), logger: logger) : MemoryTallies()
        var context = ServerContext(
            boards: boards,
            favorites: favorites,
            coinInfo: dependencies.coinInfo,
            candles: dependencies.apis.mapValues { CandleCache(api: $0, clock: dependencies.ticks) },
            demo: configuration.demo,
            simulatorURL: dependencies.simulatorURL,
            version: configuration.version,
            favoritesChanged: favoritesChanged,
            favoriteWrites: WriteRateLimit(perMinute: configuration.favoriteWritesPerMinute, book: tallies)
        )
        context.premium = dependencies.premium
        context.premiumSources = sources
        context.wallets = dependencies.wallets
        context.notices = dependencies.notices
        let premiumFeed = dependencies.premium
        context.executable = ExecutablePremiumReader(
            apis: dependencies.apis,
            depth: dependencies.depthFeeds,
            globals: dependencies.globalBooks,
            wallets: dependencies.wallets,
            clock: dependencies.clock
        ) { premiumFeed?.status.decision.quote }
        context.clock = dependencies.clock
        let history = dependencies.premium.map {
            PremiumHistory(boards: boards, feed: $0, now: dependencies.clock.milliseconds, pace: dependencies.ticks)
        }
        context.premiumHistory = history
        context.globalPrices = dependencies.globalPrices
        context.premiumStore = PremiumHistoryStore(database: database)
        context.tetherLines = TetherDayLines(store: PremiumHistoryStore(database: database))
        let recorder = dependencies.premium.flatMap { feed in
            dependencies.historyVenues.map { venues in
                PremiumRecorder(
                    boards: boards,
                    apis: dependencies.apis,
                    venues: venues,
                    feed: feed,
                    store: PremiumHistoryStore(database: database),
                    clock: dependencies.clock,
                    pace: dependencies.ticks,
                    logger: logger
                )
            }
        }
        // The deemed prices of 2027-01-01 00:00 KST: every replica records, each reading is kept once.
        let deemedRecorder = DeemedPriceRecorder(
            boards: boards,
            apis: dependencies.apis,
            store: DeemedPriceStore(database: database),
            clock: dependencies.clock,
            pace: dependencies.ticks,
            timing: dependencies.deemedTiming,
            logger: logger
        )
        context.events = MarketEventStore(database: database)
        context.tether = TetherQuotes(boards: boards, apis: dependencies.apis, clock: dependencies.clock)

        // The history of changes, and 변동 알림 told to the owners who want them, as every alert.
        let teller = ChangeTeller(store: ChangeAlertStore(database: database), logger: logger) { firing in
            hub.notify(firing.owner, message: JSONText.encode(firing))
            webhooks.enqueue(firing)
        }
        let events = dependencies.eventsEvery.map { interval in
            MarketEventRecorder(
                boards: boards,
                apis: dependencies.apis,
                wallets: dependencies.wallets,
                store: MarketEventStore(database: database),
                interval: interval,
                clock: dependencies.clock,
                pace: dependencies.ticks,
                logger: logger
            ) { await teller.tell($0) }
        }

        let publicOrigin = PublicOrigin(publicURL: configuration.publicURL, listenHost: configuration.host, port: configuration.port)
        // HEAD is answered wherever GET is (RFC 9110 §9.3.2: its headers, no body).
        let router = Router(context: SiseRequestContext.self, options: [.autoGenerateHeadEndpoints])
        let routeTable = RouteTable()
        let routes = RouteRecorder(router: router, table: routeTable)
        let metrics = ServerMetrics()
        for (exchange, feed) in dependencies.depthFeeds {
            feed.reportDrops { metrics.droppedBook(exchange: exchange.rawValue, reason: $0) }
        }
        hub.attach(
            DepthPush(
                context: context,
                metrics: metrics,
                grace: configuration.depthGrace,
                feeds: dependencies.depthFeeds,
                silence: dependencies.silence
            )
        )
        // Outermost first: headers on every answer, then errors in one JSON shape, then
        // hostile paths refused before anything (static files included) looks at them.
        let connections = ConnectionCounter(limits: configuration.limits)
        router.middlewares.add(ClientAddressMiddleware(proxies: configuration.trustedProxies))
        router.middlewares.add(MetricsMiddleware(metrics: metrics))
        // Each request at debug level (`LOG_LEVEL=debug`), with its `hb.request.id`; no headers, so no cookie or token.
        router.middlewares.add(LogRequestsMiddleware(.debug))
        router.middlewares.add(SecurityHeadersMiddleware(origin: publicOrigin))
        router.middlewares.add(APIErrorMiddleware())
        router.middlewares.add(PathGuardMiddleware())
        router.middlewares.add(ForwardedClientCap(counter: connections))
        router.middlewares.add(MethodNotAllowedMiddleware(table: routeTable))
        router.middlewares.add(HostCheckMiddleware(origin: publicOrigin))
        router.middlewares.add(DeviceIdentityMiddleware(secure: publicOrigin.isSecure, devices: devices))
        let accounts = AccountStore(database: database)
        router.middlewares.add(SessionMiddleware(accounts: accounts, secure: publicOrigin.isSecure, clock: dependencies.clock))
        router.middlewares.add(CSRFMiddleware(origin: publicOrigin))
        if let assets = WebAssets.directory {
            router.middlewares.add(
                StaticAssetsMiddleware(assets: StaticAssets(directory: assets, exchanges: dependencies.boards.all.map(\.exchange)))
            )
        }
        ExchangesController(exchanges: dependencies.boards.all.map(\.exchange)).addRoutes(to: routes)
        MarketsController(context: context).addRoutes(to: routes)
        CompareController(context: context).addRoutes(to: routes)
        StatusController(context: context).addRoutes(to: routes)
        FavoritesController(context: context).addRoutes(to: routes)
        let hasher = PasswordHasher(cost: configuration.passwordCost)
        let handover = OwnerData(database: database, limits: .init(rules: alertStore.maxRules, webhooks: alertStore.maxWebhooks))
        let sessions = SessionOpener(
            accounts: accounts,
            secure: publicOrigin.isSecure,
            favoritesChanged: favoritesChanged,
            adopt: { device, account in
                // The device's rules now fire for the account (and reach its webhooks).
                guard let moved = try? await handover.move(from: device, into: account) else { return }
                alerts.reowned(moved)
                await changes.publish(.alerts, owner: account)
                await portfolioChanged(account)
            },
            clock: dependencies.clock
        )
        let throttle = LoginThrottle(book: tallies)
        let loginDevices = try await LoginDeviceCookie.load(
            from: ServerKeys(database: database, clock: dependencies.clock),
            secure: publicOrigin.isSecure
        )
        PushController(context: context, vapid: vapid, store: alertStore, poster: poster).addRoutes(to: routes)
        AuthController(
            accounts: accounts,
            hasher: hasher,
            throttle: throttle,
            sessions: sessions,
            devices: loginDevices,
            signupPolicy: configuration.signup
        ).addRoutes(to: routes)
        SocialAuthController(
            clients: Dictionary(dependencies.identityProviders.map { ($0.provider.id, $0) }, uniquingKeysWith: { first, _ in first }),
            accounts: accounts,
            sessions: sessions,
            throttle: throttle,
            starts: WriteRateLimit(perMinute: 30, name: "oauth-start", book: tallies),
            pending: PendingLogins(),
            origin: publicOrigin,
            signupPolicy: configuration.signup
        ).addRoutes(to: routes)
        let avatars = configuration.dataDirectory.appendingPathComponent("avatars")
        MeController(accounts: accounts, hasher: hasher, secure: publicOrigin.isSecure, avatars: avatars).addRoutes(to: routes)
        AvatarController(accounts: accounts, directory: avatars).addRoutes(to: routes)
        CoinInfoController(context: context).addRoutes(to: routes)
        RankingController(context: context).addRoutes(to: routes)
        PremiumController(context: context).addRoutes(to: routes)
        PremiumMatrixController(context: context).addRoutes(to: routes)
        PremiumHistoryController(context: context).addRoutes(to: routes)
        WalletsController(context: context).addRoutes(to: routes)
        ExecutablePremiumController(context: context).addRoutes(to: routes)
        NoticesController(context: context).addRoutes(to: routes)
        EventsController(context: context).addRoutes(to: routes)
        CandlesController(context: context).addRoutes(to: routes)
        OrderbookController(context: context, metrics: metrics).addRoutes(to: routes)
        PortfolioController(context: context, store: portfolio, changed: portfolioChanged).addRoutes(to: routes)
        TaxController(boards: boards, portfolio: portfolio, deemed: DeemedPriceStore(database: database), clock: dependencies.clock).addRoutes(
            to: routes
        )
        let accountDesk = AccountDesk(
            keys: ExchangeKeyStore(database: database, clock: dependencies.clock),
            sources: dependencies.accountSources ?? { _, _ in nil },
            prices: { exchange, markets in await boards.krwPrices(exchange, markets) },
            clock: dependencies.clock
        )
        let accountSyncs = AccountSyncJobs(
            desk: accountDesk,
            sync: AccountHistorySync(portfolio: portfolio, clock: dependencies.clock),
            changed: portfolioChanged
        )
        let accountSchedule = dependencies.accountSyncEvery.map {
            AccountSyncSchedule(jobs: accountSyncs, every: $0, pace: dependencies.ticks, logger: logger)
        }
        ExchangeAccountsController(context: context, desk: accountDesk, syncs: accountSyncs, portfolio: portfolio).addRoutes(to: routes)
        AlertsController(context: context, store: alertStore, engine: alerts, lists: watchLists, changes: changes).addRoutes(to: routes)
        ChangeAlertsController(context: context, store: ChangeAlertStore(database: database)).addRoutes(to: routes)
        WebhooksController(context: context, store: alertStore, poster: poster, chats: configuration.chats).addRoutes(to: routes)
        let images = ImageProxy(
            fetcher: dependencies.images,
            cache: ImageCache(directory: configuration.dataDirectory.appendingPathComponent("images")),
            urls: ImageURL(
                allowedHosts: ["assets.coingecko.com", "coin-images.coingecko.com"],
                demoOrigin: dependencies.simulatorURL?.absoluteString
            )
        )
        ImageProxyController(proxy: images).addRoutes(to: routes)
        OpenAPIController().addRoutes(to: routes)
        MCPController(tools: dependencies.mcpTools, origin: publicOrigin).addRoutes(to: routes)
        HealthController(database: database, boards: boards).addRoutes(to: routes)
        MetricsController(metrics: metrics, boards: boards, hub: hub, coinInfo: dependencies.coinInfo, token: configuration.metricsToken).addRoutes(
            to: routes
        )
        I18nController().addRoutes(to: routes)
        BoardSocketController(
            hub: hub,
            origin: publicOrigin,
            metrics: metrics,
            connects: ConnectRate(
                burst: configuration.limits.webSocketConnectBurst,
                perSecond: configuration.limits.webSocketConnectsPerSecond
            ),
            rateLimitsLoopback: configuration.limits.webSocketRateLimitsLoopback,
            ticks: dependencies.ticks
        ).addRoutes(to: routes)

        return Application(
            router: router,
            server: .guardedHTTP1WebSocket(webSocketRouter: router, counter: connections, acceptsOrigin: { publicOrigin.acceptsOrigin($0) }),
            // A deep accept queue: thousands of browsers reconnect at once after a restart.
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sise", backlog: 4_096),
            services: dependencies.services + [
                hub, devices, webhooks, alerts, ReplicaChanges(feed: changes, hub: hub, alerts: alerts, store: alertStore), deemedRecorder,
            ]
                + (history.map { [$0] } ?? []) + (recorder.map { [$0] } ?? []) + (events.map { [$0] } ?? [])
                + (accountSchedule.map { [$0] } ?? []),
            onServerRunning: { channel in
                // Connections the listening socket takes per look (NIO's default is 4): a server
                // writing to 19,000 pages looks at its sockets every turn of 1,024 pages (`LoopTurns`),
                // and 4 a look left a crowd of reconnecting pages in the accept queue past their
                // 30 s; 16 still did once the board's batches came ten a second to a saturated
                // core (17,400 of 19,800 pages in, against 18,300 with 64). (256 a look, tried
                // before the turns, left thousands of accepted pages unanswered in time.)
                try? await channel.setOption(ChannelOptions.maxMessagesPerRead, value: Self.acceptsPerRead).get()
                let port = channel.localAddress?.port ?? configuration.port
                publicOrigin.bound(port: port)
                await onReady(port)
            },
            logger: logger
        )
    }
}
