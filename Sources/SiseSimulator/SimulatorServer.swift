import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// The simulated exchanges on one loopback port: Upbit at the root (`/v1/…`,
/// `/websocket/v1`), Korbit at the root too (`/v2/…`, `/v2/public`), Bithumb under `/bithumb`
/// (`/bithumb/v1/…`, `/bithumb/websocket/v1`), Coinone under `/coinone` (`/coinone/public/v2/…`,
/// `/coinone/stream`), CoinGecko under `/api/v3`, controls at `/_sim`.
public struct SimulatorServer: Sendable {
    public let configuration: SimulatorConfiguration
    let exchange: SimExchange
    let korbit: SimExchange
    let bithumb: SimExchange
    let coinone: SimExchange
    let openID = SimOpenID()
    let binance: SimBinance

    public init(configuration: SimulatorConfiguration) {
        self.configuration = configuration
        exchange = SimExchange(configuration: configuration)
        korbit = SimExchange(configuration: configuration, venue: .korbit)
        bithumb = SimExchange(configuration: configuration, venue: .bithumb)
        coinone = SimExchange(configuration: configuration, venue: .coinone)
        binance = SimBinance(exchange: exchange)
    }

    /// Builds the Hummingbird application; `onReady` receives the bound port.
    public func makeApplication(logger: Logger = Logger(label: "sise.simulator"),
                                onReady: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router(context: SimRequestContext.self)
        router.middlewares.add(UpbitNotFoundMiddleware())
        UpbitRESTController(exchange: exchange).addRoutes(to: router)
        UpbitStreamController(exchange: exchange, hub: exchange.hub).addRoutes(to: router)
        UpbitRESTController(exchange: bithumb, bithumb: true).addRoutes(to: router)
        UpbitStreamController(exchange: bithumb, hub: bithumb.hub, path: "/bithumb/websocket/v1").addRoutes(to: router)
        KorbitRESTController(exchange: korbit).addRoutes(to: router)
        KorbitStreamController(exchange: korbit).addRoutes(to: router)
        CoinoneRESTController(exchange: coinone).addRoutes(to: router)
        CoinoneStreamController(exchange: coinone).addRoutes(to: router)
        CoinGeckoController(exchange: exchange).addRoutes(to: router)
        OpenIDController(provider: openID).addRoutes(to: router)
        BinanceController(binance: binance).addRoutes(to: router)
        AdminController(venues: [.upbit: exchange, .korbit: korbit, .bithumb: bithumb, .coinone: coinone]).addRoutes(to: router)
        var quiet = logger
        quiet.logLevel = .warning
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                 serverName: "sise-simulator"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? 0) },
            logger: quiet
        )
    }
}
