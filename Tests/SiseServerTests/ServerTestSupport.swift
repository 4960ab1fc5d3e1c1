import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseServer
import SiseSimulator
import SiseStore
import SiseTestSupport
import Testing

/// The real app (demo simulator, SQLite in a temp folder) under Hummingbird's live test client.
enum ServerHarness {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sise-test-\(UUID().uuidString)")
    }

    static func run<T: Sendable>(
        dataDirectory: URL = temporaryDirectory(),
        hostile: Bool = false,
        clock: WallClock = .system,
        silence: Duration = .seconds(5),
        allowPrivateWebhooks: Bool = false,
        eventsEvery: Duration? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> T
    ) async throws -> T {
        var configuration = ServerConfiguration(port: 0, demo: true, dataDirectory: dataDirectory)
        configure(&configuration)
        let app = try await build(
            configuration,
            hostile: hostile,
            silence: silence,
            clock: clock,
            allowPrivateWebhooks: allowPrivateWebhooks,
            eventsEvery: eventsEvery
        )
        return try await app.test(.live) { client in
            // The board is live before the first assertion.
            _ = try await waitUntil(timeout: .seconds(15)) {
                let response = try await client.execute(uri: "/api/status", method: .get)
                return String(buffer: response.body).contains("\"state\":\"live\"")
            }
            return try await body(client)
        }
    }
}

extension ServerHarness {
    /// The store of a test server's data directory: SQLite in the directory, or — with
    /// `SISE_TEST_STORE=postgres` (the test command runs the store-heavy API suites so) — a fresh
    /// PostgreSQL database, the same one for every open of that directory.
    static func store(_ directory: URL) async throws -> AppDatabase {
        guard ProcessInfo.processInfo.environment["SISE_TEST_STORE"] == "postgres" else { return try AppDatabase.open(directory: directory) }
        if let open = postgresStores.value[directory] { return open }
        guard let fresh = try await TestStores.postgres() else { return try AppDatabase.open(directory: directory) }
        postgresStores.value[directory] = fresh
        return fresh
    }

    private static let postgresStores = Box<[URL: AppDatabase]>([:])

    /// The data directory of the last server `AccountsAPITests.run` started (tests in a suite
    /// run one at a time).
    static let lastDataDirectory = Box<URL?>(nil)

    final class Box<T: Sendable>: @unchecked Sendable {
        // @unchecked: a test-only cell behind a lock.
        private let lock = NSLock()
        private var stored: T
        init(_ value: T) { stored = value }
        var value: T {
            get {
                lock.lock()
                defer { lock.unlock() }
                return stored
            }
            set {
                lock.lock()
                stored = newValue
                lock.unlock()
            }
        }
    }

    /// The app as `sise serve` builds it, from a test's composition root: the real clients
    /// pointed at `upbitURL` (a simulator the test runs), or at a simulator of its own that the
    /// app's service group starts and stops.
    static func build(
        _ configuration: ServerConfiguration,
        upbitURL: URL? = nil,
        hostile: Bool = false,
        silence: Duration = .seconds(5),
        clock: WallClock = .system,
        allowPrivateWebhooks: Bool = false,
        eventsEvery: Duration? = nil
    ) async throws -> some ApplicationProtocol {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var services: [any Service] = []
        var base = upbitURL
        var simulatorURL: URL?
        if base == nil {
            let simulator = try await RunningSimulator.start(SimulatorConfiguration(hostileNames: hostile))
            services.append(simulator)
            base = simulator.baseURL
            simulatorURL = simulator.baseURL
        }
        let url = try #require(base)
        let transport = LiveHTTPTransport()
        // Every exchange of the registry on one simulator, at its mount; the default one's board
        // runs, the others start idle.
        let endpoints = Dictionary(uniqueKeysWithValues: ExchangeRegistry.all.map { ($0.exchange, $0.simulated(at: url)) })
        let lenders = ExchangeRegistry.lenders(endpoints, transport: transport)
        var apis: [Exchange: any ExchangeAPI] = [:]
        var others: [Exchange: LiveBoard] = [:]
        for spec in ExchangeRegistry.all {
            guard let endpoint = endpoints[spec.exchange] else { continue }
            apis[spec.exchange] = spec.api(endpoint, transport: transport, lenders: spec.borrowsNames ? lenders : [])
            guard spec.exchange != .default else { continue }
            others[spec.exchange] = LiveBoard(
                configuration: .init(exchange: spec.exchange, quotes: spec.exchange.quotes, idleAfter: .seconds(60), startsIdle: true),
                api: apis[spec.exchange] ?? V1QuotationClient(configuration: .init(baseURL: url), transport: transport),
                stream: spec.stream(endpoint, silence: silence, logger: logger),
                logger: logger
            )
        }
        var depthFeeds: [Exchange: DepthFeed] = [:]
        for spec in ExchangeRegistry.all {
            guard let endpoint = endpoints[spec.exchange], let stream = spec.depthStream(endpoint, silence: silence, logger: logger) else { continue }
            depthFeeds[spec.exchange] = DepthFeed(exchange: spec.exchange, stream: stream, logger: logger)
        }
        let upbit = apis[.default] ?? V1QuotationClient(configuration: .init(baseURL: url), transport: transport)
        let board = LiveBoard(
            configuration: .init(exchange: .upbit),
            api: upbit,
            stream: ExchangeRegistry.spec(.default).stream(ExchangeRegistry.spec(.default).simulated(at: url), silence: silence, logger: logger),
            logger: logger
        )
        let database = try await store(configuration.dataDirectory)
        let coinInfo = CoinInfoService(
            api: CoinGeckoClient(configuration: .init(baseURL: url.appendingPathComponent("api/v3")), transport: transport),
            cache: DatabaseCache(database: database)
        )
        // The kimchi premium from the same simulator's Binance, as `--demo` has it.
        let premium = PremiumFeed(
            configuration: .init(fx: .upbitUSDT),
            binance: BinanceClient(configuration: .init(baseURL: url.appendingPathComponent("binance")), transport: transport),
            stream: BinanceMiniTickerStream(
                webSocketBase: BinanceClient.Configuration.derivedWebSocketURL(url.appendingPathComponent("binance")),
                logger: logger
            ),
            upbit: board,
            fx: .clients(
                usdtExchange: upbit,
                dunamu: DunamuForexClient(baseURL: url.appendingPathComponent("dunamu"), transport: transport),
                eximbank: KoreaEximClient(baseURL: url.appendingPathComponent("koreaexim"), key: "test", transport: transport),
                coinGecko: nil
            ),
            coinInfo: coinInfo,
            logger: logger
        )
        // The premium matrix's venues on the same simulator (Binance through the feed).
        let globalPrices = GlobalPrices(
            apis: Dictionary(uniqueKeysWithValues: GlobalVenueRegistry.all.map { ($0.venue, $0.api($0.simulated(at: url), transport: transport)) }),
            binance: premium,
            clock: clock,
            logger: logger
        )
        // 입출금 현황 from the same simulator; Upbit's with the simulator's key.
        let wallets = WalletService(
            feeds: Dictionary(
                uniqueKeysWithValues: ExchangeRegistry.all.map { spec in
                    (
                        spec.exchange,
                        spec.wallets(
                            spec.simulated(at: url),
                            transport: transport,
                            key: ExchangeKey(access: SimulatedUpbitKey.access, secret: SimulatedUpbitKey.secret)
                        )
                    )
                }
            ),
            interval: .seconds(1),
            clock: clock,
            logger: logger
        )
        let notices = NoticeService(
            feeds: Dictionary(
                uniqueKeysWithValues: ExchangeRegistry.all.map { ($0.exchange, $0.notices($0.simulated(at: url), transport: transport)) }
            ),
            interval: .seconds(1),
            clock: clock,
            logger: logger
        )
        services +=
            [ShutdownHook { await transport.shutdown() }, board] + Array(others.values) as [any Service] + [
                coinInfo, premium, globalPrices, wallets, notices,
            ]
            + Array(depthFeeds.values) as [any Service]
        var dependencies = ServerDependencies(
            boards: ExchangeBoards(default: board, others: others),
            apis: apis,
            coinInfo: coinInfo,
            database: database,
            images: LiveImageFetcher(trustedOrigins: Set(simulatorURL.map { [$0.absoluteString] } ?? [])),
            poster: WebhookPoster(allowPrivate: allowPrivateWebhooks),
            simulatorURL: simulatorURL,
            identityProviders: simulatorURL.map { [OpenIDClient(provider: testProvider($0), transport: transport)] } ?? [],
            premium: premium,
            services: services
        )
        dependencies.clock = clock
        dependencies.globalPrices = globalPrices
        dependencies.wallets = wallets
        dependencies.notices = notices
        dependencies.globalBooks = Dictionary(
            uniqueKeysWithValues: GlobalVenueRegistry.all.map { ($0.venue, $0.api($0.simulated(at: url), transport: transport) as any GlobalBookAPI) }
        )
        dependencies.depthFeeds = depthFeeds
        dependencies.silence = silence
        dependencies.eventsEvery = eventsEvery
        // Exchange accounts on the same simulator, with its verifier of signed requests.
        dependencies.accountSources = { exchange, key in
            ExchangeRegistry.spec(exchange).account(ExchangeRegistry.spec(exchange).simulated(at: url), transport: transport, key: key)
        }
        return try await SiseServerApp.build(configuration, dependencies: dependencies, logger: logger)
    }
}

/// The simulator's OpenID provider as `--demo` configures it.
func testProvider(_ simulator: URL) -> OpenIDProvider {
    OpenIDProvider(
        id: "demo",
        displayName: "Demo",
        issuer: simulator.appendingPathComponent("oidc"),
        clientID: "sise-demo",
        clientSecret: .fixed("sise-demo-secret"),
        scopes: ["openid", "email", "profile"]
    )
}

/// A browser's cookie jar, enough for the device and CSRF cookies.
struct CookieJar: Sendable {
    var cookies: [String: String] = [:]

    mutating func take(_ response: TestResponse) {
        for field in response.headers where field.name == .setCookie {
            let pair = field.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
        }
    }

    var header: String { cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ") }

    /// A new visitor: the cookies its first request got, and the headers of a JSON request from its page.
    static func visitor(_ client: some TestClientProtocol) async throws -> (jar: CookieJar, json: HTTPFields) {
        var jar = CookieJar()
        jar.take(try await client.execute(uri: "/api/alerts", method: .get))
        var headers = jar.pageHeaders
        headers[.contentType] = "application/json"
        return (jar, headers)
    }

    /// Headers of a request from Sise's own page: cookies and the CSRF echo.
    var pageHeaders: HTTPFields {
        var fields: HTTPFields = [.cookie: header]
        if let csrf = cookies["sise_csrf"] { fields[HTTPField.Name("X-CSRF-Token")!] = csrf }
        return fields
    }
}

func json(_ response: TestResponse) -> Any? {
    try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
}

func errorCode(_ response: TestResponse) -> String? {
    ((json(response) as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
}
