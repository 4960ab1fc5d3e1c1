import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import SiseCore

/// The simulated exchanges on one loopback port: Upbit at the root (`/v1/…`,
/// `/websocket/v1`), Korbit at the root too (`/v2/…`, `/v2/public`), Bithumb under `/bithumb`
/// (`/bithumb/v1/…`, `/bithumb/websocket/v1`), Coinone under `/coinone` (`/coinone/public/v2/…`,
/// `/coinone/stream`), CoinGecko under `/api/v3`, controls at `/_sim`.
public struct SimulatorServer: Sendable {
    public let configuration: SimulatorConfiguration
    /// Every exchange of the registry, played on this port.
    let venues: [Exchange: SimExchange]
    /// The reference venue (the default exchange): CoinGecko's and Binance's prices follow it.
    let exchange: SimExchange
    let openID = SimOpenID()
    let binance: SimBinance
    let fx: SimFX
    /// The global venues beside Binance (OKX, Bybit), each under its own mount.
    let globalVenues: [SimGlobalVenue]
    /// Every venue's wallets (입출금 현황) and their switches.
    let wallets = SimWallets()
    /// The exchanges' notices, and a switch to post one.
    let notices: SimNotices
    /// The exchange accounts people read with their keys (Upbit's, Bithumb's).
    let accounts: SimAccounts

    public init(configuration: SimulatorConfiguration) {
        self.configuration = configuration
        let venues = Dictionary(uniqueKeysWithValues: Exchange.allCases.map { ($0, SimExchange(configuration: configuration, venue: $0)) })
        self.venues = venues
        exchange = venues[.default] ?? SimExchange(configuration: configuration, venue: .default)
        let binance = SimBinance(exchange: exchange)
        self.binance = binance
        fx = SimFX()
        globalVenues = GlobalVenue.allCases.filter { $0 != .binance }.map { SimGlobalVenue(venue: $0, binance: binance) }
        notices = SimNotices(clock: configuration.now)
        accounts = SimAccounts(venues: venues)
    }

    /// Builds the Hummingbird application; `onReady` receives the bound port.
    public func makeApplication(
        logger: Logger = Logger(label: "sise.simulator"),
        onReady: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let router = Router(context: SimRequestContext.self)
        router.middlewares.add(UpbitNotFoundMiddleware())
        for exchange in Exchange.allCases {
            if let venue = venues[exchange] { exchange.mountSimulated(venue, wallets: wallets, on: router) }
        }
        CoinGeckoController(exchange: exchange).addRoutes(to: router)
        OpenIDController(provider: openID).addRoutes(to: router)
        BinanceController(binance: binance).addRoutes(to: router)
        FXController(exchange: exchange, fx: fx).addRoutes(to: router)
        for venue in globalVenues { venue.addRoutes(to: router) }
        WalletController(venues: venues, wallets: wallets).addRoutes(to: router)
        notices.addRoutes(to: router)
        AccountController(accounts: accounts).addRoutes(to: router)
        AdminController(venues: venues).addRoutes(to: router)
        var quiet = logger
        quiet.logLevel = .warning
        return Application(
            router: router,
            server: .simulatorHTTP1WebSocket(webSocketRouter: router),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "sise-simulator"
            ),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? 0) },
            logger: quiet
        )
    }
}
