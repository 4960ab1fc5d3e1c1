import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseStore

/// The composition root of every command. The settings are read once (`GlobalOptions`); this is
/// the one place that turns them into what talks to the outside: the HTTP transport, each
/// exchange's REST client and streams, Binance's, Dunamu's and CoinGecko's clients, the log-in
/// providers' clients, the image fetcher, the webhook poster, the store (`--database` honoured by
/// every command) and the clocks (the time of day, and the monotonic one durations are waited on). `serve`, `tui` and `watch` hold one for their lifetime
/// (`live`); every other command holds one for its call (`oneShot`). Nothing else in the program
/// builds a client or opens a store.
struct Root: Sendable {
    let settings: Settings
    let transport: LiveHTTPTransport
    /// The wall clock every command's rules and records read.
    let clock: WallClock
    /// The clock every duration is measured and waited on (pings, silences, pauses, frames).
    let ticks: any MonotonicClock = .system
    /// The built-in simulator when `--demo`: every address below points at it.
    let simulator: RunningSimulator?
    /// Where the demo simulator is (this root's own, or one a parent runs: `SISE_DEMO_SIMULATOR`).
    let simulatorURL: URL?
    /// Where each exchange is reached: the settings' addresses, or the simulator's.
    let endpoints: [Exchange: ExchangeEndpoint]
    /// Each exchange's REST client, built once (one that borrows coin names asks the exchanges
    /// that name them).
    private let apis: [Exchange: any ExchangeAPI]

    /// What `--demo` changes.
    struct Demo {
        var hostileNames = false
        /// How many KRW markets each simulated exchange lists.
        var krwMarkets = 250
    }

    private init(settings: Settings, simulator: RunningSimulator?, clock: WallClock = .system) {
        self.settings = settings
        self.simulator = simulator
        let simulatorURL = simulator?.baseURL ?? settings.demoSimulator
        self.simulatorURL = simulatorURL
        self.clock = clock
        let transport = LiveHTTPTransport()
        self.transport = transport
        let endpoints = Dictionary(
            uniqueKeysWithValues: ExchangeRegistry.all.map { spec in
                (spec.exchange, simulatorURL.map { spec.simulated(at: $0) } ?? settings.endpoint(spec.exchange))
            }
        )
        self.endpoints = endpoints
        let lenders = ExchangeRegistry.lenders(endpoints, transport: transport)
        apis = Dictionary(
            uniqueKeysWithValues: ExchangeRegistry.all.compactMap { spec in
                endpoints[spec.exchange].map { (spec.exchange, spec.api($0, transport: transport, lenders: spec.borrowsNames ? lenders : [])) }
            }
        )
    }

    /// The root of a command that runs until stopped (`serve`, `tui`, `watch`): with `demo`, the
    /// built-in simulator is started first (the clients need its port). `shutdown()` closes it.
    static func live(_ settings: Settings, demo: Demo?, logger: Logger) async throws -> Root {
        guard let demo else { return Root(settings: settings, simulator: nil) }
        let running = try await RunningSimulator.start(SimulatorConfiguration(krwMarkets: demo.krwMarkets, hostileNames: demo.hostileNames))
        logger.info("demo: simulator on \(running.baseURL.absoluteString)")
        return Root(settings: settings, simulator: running)
    }

    /// Runs a one-shot command's `body` with a root whose connections are closed on every path;
    /// upstream trouble becomes exit code 3 with a line in the user's language.
    static func oneShot<T>(_ settings: Settings, _ body: (Root) async throws -> T) async throws -> T {
        let root = Root(settings: settings, simulator: nil)
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body(root))
        } catch let error as FeedError {
            outcome = .failure(CLIFailure.upstream(error, settings.language))
        } catch {
            outcome = .failure(error)
        }
        await root.shutdown()
        return try outcome.get()
    }

    /// Closes the connection pools (the exchanges' and the pinned webhook and image clients).
    /// The simulator, when there is one, runs as a service and stops with its group.
    func shutdown() async {
        await transport.shutdown()
        await PinnedHTTPClients.shared.shutdown()
    }

    // MARK: Exchanges

    /// The REST client of `exchange`.
    func api(_ exchange: Exchange) -> any ExchangeAPI {
        apis[exchange] ?? ExchangeRegistry.spec(exchange).api(endpoint(exchange), transport: transport)
    }

    func endpoint(_ exchange: Exchange) -> ExchangeEndpoint {
        endpoints[exchange] ?? settings.endpoint(exchange)
    }

    /// `exchange`'s ticker stream, held to `silence`.
    func tickerStream(_ exchange: Exchange, silence: Duration, logger: Logger) -> TickerStream {
        ExchangeRegistry.spec(exchange).stream(endpoint(exchange), silence: silence, logger: logger)
    }

    /// `exchange`'s 호가/체결 feed, where its WebSocket carries them (nil: read over REST).
    func depthFeed(_ exchange: Exchange, silence: Duration, logger: Logger) -> DepthFeed? {
        ExchangeRegistry.spec(exchange).depthStream(endpoint(exchange), silence: silence, logger: logger).map {
            DepthFeed(exchange: exchange, stream: $0, logger: logger)
        }
    }

    // MARK: Global venues, rates and coin information

    /// The premium's sources as this root reaches them (the simulator's Binance and Dunamu with `--demo`).
    func premium(_ premium: PremiumSettings) -> PremiumSettings {
        var premium = premium
        if let simulatorURL { premium.pointAt(simulator: simulatorURL) }
        return premium
    }

    func binance(_ premium: PremiumSettings) -> BinanceClient {
        BinanceClient(configuration: self.premium(premium).binance, transport: transport)
    }

    func binanceStream(_ premium: PremiumSettings, silence: Duration, logger: Logger) -> BinanceMiniTickerStream {
        BinanceMiniTickerStream(webSocketBase: self.premium(premium).binance.webSocketURL, silence: silence, logger: logger)
    }

    func dunamu(_ premium: PremiumSettings) -> DunamuForexClient {
        DunamuForexClient(baseURL: self.premium(premium).dunamuURL, transport: transport)
    }

    /// Every global venue's price client (the premium matrix).
    func globalAPIs(_ premium: PremiumSettings) -> [GlobalVenue: any GlobalPriceAPI] {
        let premium = self.premium(premium)
        return Dictionary(uniqueKeysWithValues: GlobalVenueRegistry.all.map { ($0.venue, $0.api(premium.url($0.venue), transport: transport)) })
    }

    /// Each exchange's wallets (입출금 현황) as its spec reads them, with the key given for it.
    func walletFeeds() -> [Exchange: WalletFeed] {
        Dictionary(
            uniqueKeysWithValues: ExchangeRegistry.all.compactMap { spec in
                endpoints[spec.exchange].map { (spec.exchange, spec.wallets($0, transport: transport, key: settings.keys[spec.exchange])) }
            }
        )
    }

    /// A person's account on `exchange`, read with their `key` (nil where Sise cannot read it).
    func account(_ exchange: Exchange, key: ExchangeKey) -> (any AccountSource)? {
        ExchangeRegistry.spec(exchange).account(endpoint(exchange), transport: transport, key: key)
    }

    /// Each exchange's notices as its spec reads them.
    func noticeFeeds() -> [Exchange: NoticeFeed] {
        Dictionary(
            uniqueKeysWithValues: ExchangeRegistry.all.compactMap { spec in
                endpoints[spec.exchange].map { (spec.exchange, spec.notices($0, transport: transport)) }
            }
        )
    }

    /// Korea Eximbank's client, when a key is configured (always in `--demo`).
    func eximbank(_ premium: PremiumSettings) -> KoreaEximClient? {
        let premium = self.premium(premium)
        return premium.eximKey.map { KoreaEximClient(baseURL: premium.eximURL, key: $0, transport: transport) }
    }

    /// The FX sources as this root reaches them: the USDT market's REST ticker, Dunamu, Korea
    /// Eximbank (with a key) and CoinGecko's rate through `coinGecko`.
    func fxReader(_ premium: PremiumSettings, coinGecko: (@Sendable () async throws -> (rate: Double, at: Int64?))?) -> FXReader {
        FXReader.clients(
            // The market rate is the exchange of `upbit-usdt`'s KRW-USDT.
            usdtExchange: FXSource.upbitUSDT.exchange.map(api),
            dunamu: dunamu(premium),
            eximbank: eximbank(premium),
            coinGecko: coinGecko
        )
    }

    /// CoinGecko's client (`--coingecko-url`, `--coingecko-key`, `--coingecko-plan`; the
    /// simulator's with `--demo`).
    func coinGecko(_ options: CoinGeckoOptions) throws -> CoinGeckoClient {
        var configuration = try settings.coinGecko(options)
        if let simulatorURL { configuration = .init(baseURL: simulatorURL.appendingPathComponent("api/v3")) }
        return CoinGeckoClient(configuration: configuration, transport: transport)
    }

    // MARK: What the server reaches out with

    /// A social log-in provider's client.
    func identity(_ provider: OpenIDProvider) -> OpenIDClient {
        OpenIDClient(provider: provider, transport: transport, clock: clock)
    }

    /// The image proxy's fetcher; the demo simulator's images are trusted.
    func images() -> LiveImageFetcher {
        LiveImageFetcher(trustedOrigins: Set(simulatorURL.map { [$0.absoluteString] } ?? []))
    }

    /// What posts alert webhooks, chats and pushes (`allowPrivate`: receivers on this network too).
    static func poster(allowPrivate: Bool) -> WebhookPoster {
        WebhookPoster(allowPrivate: allowPrivate)
    }

    // MARK: The store

    /// The store `--database`, `SISE_DATABASE_URL` or `database` names, else `sise.sqlite` in the
    /// data directory (a PostgreSQL server's schema migrated); failures are the user's one line.
    static func store(_ settings: Settings, _ options: StoreOptions, logger: Logger = Logger(label: "sise.store")) async throws -> AppDatabase {
        let location = try settings.databaseLocation(options)
        do {
            return try await AppDatabase.open(location, logger: logger)
        } catch {
            throw CLIFailure(code: .unexpected, message: StartupFailure.message(error, language: settings.language))
        }
    }
}
