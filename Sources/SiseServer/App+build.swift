import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseStore

/// The composition root of `sise serve`: the only place live clients are built.
public enum SiseServerApp {
    /// Builds the application; `onReady` gets the bound port once it accepts connections.
    public static func build(_ configuration: ServerConfiguration, logger: Logger = Logger(label: "sise.serve"),
                             onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws -> some ApplicationProtocol {
        var upbitURL = configuration.upbitURL
        var webSocketURL = configuration.upbitWebSocketURL
        var simulator: RunningSimulator?
        var coinGecko = configuration.coinGecko
        if configuration.demo {
            let running = try await RunningSimulator.start(SimulatorConfiguration(hostileNames: configuration.demoHostileNames))
            simulator = running
            upbitURL = running.baseURL
            webSocketURL = nil
            coinGecko = .init(baseURL: running.baseURL.appendingPathComponent("api/v3"))
            logger.info("demo: simulator on \(running.baseURL.absoluteString)")
        }
        let database = try AppDatabase.open(directory: configuration.dataDirectory)
        let favorites = SQLiteFavorites(database: database)
        let devices = DeviceCleanup(registry: DeviceRegistry(database: database), logger: logger)
        let upbit = UpbitBoard(restURL: upbitURL, webSocketURL: webSocketURL,
                               configuration: .init(idleAfter: configuration.idleAfter),
                               silence: configuration.silence, logger: logger)
        let board = upbit.board
        let transport = upbit.transport
        let coinInfo = CoinInfoService(api: CoinGeckoClient(configuration: coinGecko, transport: transport),
                                       cache: SQLiteCache(database: database), callsPerMinute: configuration.coinGeckoCallsPerMinute)
        let hub = BoardSocketHub(board: board, favorites: favorites, demo: configuration.demo, logger: logger)
        let context = ServerContext(board: board, favorites: favorites, coinInfo: coinInfo, upbit: CandleCache(api: upbit.api), demo: configuration.demo,
                                    simulatorURL: simulator?.baseURL, version: configuration.version,
                                    favoritesChanged: { await hub.favoritesChanged($0) },
                                    favoriteWrites: WriteRateLimit(perMinute: configuration.favoriteWritesPerMinute))

        let publicOrigin = PublicOrigin(publicURL: configuration.publicURL, listenHost: configuration.host, port: configuration.port)
        let router = Router(context: SiseRequestContext.self)
        // Outermost first: headers on every answer, then errors in one JSON shape, then
        // hostile paths refused before anything (static files included) looks at them.
        router.middlewares.add(SecurityHeadersMiddleware())
        router.middlewares.add(APIErrorMiddleware())
        router.middlewares.add(PathGuardMiddleware())
        router.middlewares.add(HostCheckMiddleware(origin: publicOrigin))
        router.middlewares.add(DeviceIdentityMiddleware(secure: publicOrigin.isSecure, devices: devices))
        router.middlewares.add(CSRFMiddleware(origin: publicOrigin))
        if let assets = WebAssets.directory {
            router.middlewares.add(FileMiddleware(assets.path, searchForIndexHtml: true, logger: logger))
        }
        MarketsController(context: context).addRoutes(to: router)
        StatusController(context: context).addRoutes(to: router)
        FavoritesController(context: context).addRoutes(to: router)
        CoinInfoController(context: context).addRoutes(to: router)
        let demoOrigin = simulator.map { "http://127.0.0.1:\($0.port)" }
        let images = ImageProxy(
            fetcher: LiveImageFetcher(trustedOrigins: Set(demoOrigin.map { [$0] } ?? [])),
            cache: ImageCache(directory: configuration.dataDirectory.appendingPathComponent("images")),
            urls: ImageURL(allowedHosts: ["assets.coingecko.com", "coin-images.coingecko.com"], demoOrigin: demoOrigin))
        ImageProxyController(proxy: images).addRoutes(to: router)
        OpenAPIController().addRoutes(to: router)
        BoardSocketController(hub: hub, origin: publicOrigin).addRoutes(to: router)

        let demoSimulator = simulator
        let cleanup = ShutdownHook {
            await transport.shutdown()
            await demoSimulator?.stop()
        }
        return Application(
            router: router,
            server: .guardedHTTP1WebSocket(webSocketRouter: router, counter: ConnectionCounter(limits: configuration.limits)),
            // A deep accept queue: thousands of browsers reconnect at once after a restart.
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sise", backlog: 4_096),
            services: [board, hub, devices, cleanup],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                publicOrigin.bound(port: port)
                await onReady(port)
            },
            logger: logger
        )
    }
}

/// Runs `action` when the service group shuts down (closing connections, stopping the demo
/// simulator).
struct ShutdownHook: Service {
    let action: @Sendable () async -> Void

    init(_ action: @escaping @Sendable () async -> Void) {
        self.action = action
    }

    func run() async throws {
        try? await gracefulShutdown()
        await action()
    }
}
