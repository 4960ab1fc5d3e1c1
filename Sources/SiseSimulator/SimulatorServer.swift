import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// The simulated exchange as an HTTP (and later WebSocket) server on loopback.
public struct SimulatorServer: Sendable {
    public let configuration: SimulatorConfiguration
    let exchange: SimExchange

    public init(configuration: SimulatorConfiguration) {
        self.configuration = configuration
        exchange = SimExchange(configuration: configuration)
    }

    /// Builds the Hummingbird application; `onReady` receives the bound port.
    public func makeApplication(logger: Logger = Logger(label: "sise.simulator"),
                                onReady: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let router = Router(context: SimRequestContext.self)
        router.middlewares.add(UpbitNotFoundMiddleware())
        UpbitRESTController(exchange: exchange).addRoutes(to: router)
        UpbitStreamController(exchange: exchange, hub: exchange.hub).addRoutes(to: router)
        CoinGeckoController(exchange: exchange).addRoutes(to: router)
        AdminController(exchange: exchange).addRoutes(to: router)
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
