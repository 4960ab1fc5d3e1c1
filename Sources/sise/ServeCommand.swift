import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SiseEngine
import SiseFeeds
import SiseServer
import SiseStore

/// `sise serve`: the web app and its API, live by default, the simulator with `--demo`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web app and the JSON/WebSocket API (live exchange data; --demo for the built-in simulator)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var gecko: CoinGeckoOptions
    @OptionGroup var feed: LiveFeedOptions
    @OptionGroup var premiumOptions: PremiumOptions

    @Option(
        name: .customLong("idle-after"),
        help: "Seconds with no viewer before the upstream feed closes until the next one (default 60; 0 never)."
    )
    var idleAfter: Double = 60

    @Option(name: .customLong("coingecko-calls-per-minute"), help: "CoinGecko budget, whatever the number of viewers (default 10).")
    var coinGeckoCallsPerMinute: Int = 10

    @Option(help: "Address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port: Int = 8080

    @Flag(help: "Run the built-in simulator instead of the live exchanges (every page shows DEMO).")
    var demo = false

    @Flag(name: .customLong("demo-hostile-names"), help: .hidden)
    var demoHostileNames = false
    /// The demo's KRW markets per exchange (a test that audits every element of a page needs the
    /// page's kinds of rows, not 250 of each).
    @Option(name: .customLong("demo-markets"), help: .hidden)
    var demoMarkets = 250
    /// bcrypt's cost for new passwords (default 12, ≈ 250 ms of CPU a hash): test harnesses that
    /// sign up dozens of people lower it, as the Swift suites do; a person never should.
    @Option(name: .customLong("password-cost"), help: .hidden)
    var passwordCost: UInt8 = 12

    @Option(
        name: .customLong("public-url"),
        help: "The URL people open (e.g. https://sise.example); Origin and Host must match it (default: the listen address)."
    )
    var publicURL: String?

    @Option(name: .customLong("favorite-writes-per-minute"), help: "Favorite changes per client address per minute (default 120; 0 no limit).")
    var favoriteWritesPerMinute: Int = 120

    @Option(name: .customLong("max-connections"), help: "Open connections, all clients together (default 16384).")
    var maxConnections: Int = 16_384

    @Option(name: .customLong("max-connections-per-ip"), help: "Open connections per client address, loopback exempt (default 256).")
    var maxConnectionsPerIP: Int = 256

    @Option(
        name: .customLong("ws-connect-burst"),
        help: "Live-board (/ws) connections a client address or device may open at once before the steady rate applies (default 60; 0 no limit)."
    )
    var webSocketConnectBurst: Int = 60

    @Option(name: .customLong("ws-connects-per-minute"), help: "The steady rate after that burst, per address and per device (default 60).")
    var webSocketConnectsPerMinute: Int = 60

    @Option(
        help: "Who may create an account: open (anyone), closed (only `sise users add`) or invite (a code from `sise users invite`). Default open."
    )
    var signup: String = "open"

    @Flag(help: "Let alert webhooks target loopback and private addresses (receivers on your own network).")
    var allowPrivateWebhooks = false

    @Flag(
        name: .customLong("premium-history"),
        inversion: .prefixedNo,
        help: "Record every premium once a minute into the store (one replica writes each minute; default on)."
    )
    var premiumHistory = true

    @Option(name: .customLong("wallets-every"), help: "Seconds between two reads of each exchange's wallet status (1-3600; default 60).")
    var walletsEvery: Int = 60
    @Option(
        name: .customLong("events-every"),
        help: "Seconds between two looks at each exchange's listings, flags and wallets for the history of changes (1-3600; default 60)."
    )
    var eventsEvery: Int = 60

    @Option(
        name: .customLong("sync-every"),
        help: "Minutes between syncs of every connected exchange account's trade history (0: only when asked)."
    )
    var syncEvery: Int = 60

    @Option(
        name: .customLong("delivery-lease"),
        help:
            "Seconds a replica holds an alert delivery it took; one that dies holding it hands it on after this (6–3600, default 60: above a delivery's 5 s deadline, so a slow one is never repeated by another replica)."
    )
    var deliveryLease: Double = 60

    @Option(
        name: .customLong("push-subject"),
        help: "The operator contact push services see (VAPID sub): mailto:you@example.com or an https URL; default the --public-url when https."
    )
    var pushSubject: String?

    @Option(
        name: .customLong("telegram-api-url"),
        help: "Telegram's Bot API base for the chat presets (env SISE_TELEGRAM_API_URL; default https://api.telegram.org)."
    )
    var telegramAPIURL: String?

    @Option(name: .customLong("discord-webhook-url"), help: "Where Discord channel webhooks live (default https://discord.com/api/webhooks/).")
    var discordWebhookURL: String?

    @Option(name: .customLong("slack-webhook-url"), help: "Where Slack incoming webhooks live (default https://hooks.slack.com/services/).")
    var slackWebhookURL: String?

    @Option(name: .customLong("log-format"), help: "text (default) or json: one JSON object per event on standard error (env SISE_LOG_FORMAT).")
    var logFormat: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: "A proxy (CIDR, repeatable) whose X-Forwarded-For names the client (env SISE_TRUSTED_PROXIES, comma-separated); default none."
    )
    var trustedProxy: [String] = []

    @Option(
        name: .customLong("metrics-token"),
        help: "Serve /metrics to anyone with Authorization: Bearer TOKEN (env SISE_METRICS_TOKEN); without it, to this machine only."
    )
    var metricsToken: String?

    @Option(
        name: .customLong("login"),
        help:
            "A social log-in provider's setting, PROVIDER.FIELD=VALUE (repeatable): kakao.client-id=…, myidp.issuer=https://…; see docs/web-api.md. Prefer SISE_LOGIN_* or the config file for secrets."
    )
    var login: [String] = []

    @OptionGroup var storage: StoreOptions

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0–65535.") }
        if let publicURL {
            guard let url = URL(string: publicURL), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host?.isEmpty == false, url.path.isEmpty || url.path == "/"
            else {
                throw ValidationError("--public-url must be an http(s) URL without a path, like https://sise.example, not '\(publicURL)'.")
            }
        }
        if demoHostileNames && !demo { throw ValidationError("--demo-hostile-names needs --demo.") }
        guard (1...600).contains(demoMarkets) else { throw ValidationError("--demo-markets must be 1–600.") }
        guard (4...15).contains(passwordCost) else { throw ValidationError("--password-cost must be 4–15.") }
        guard (1...3_600).contains(walletsEvery) else { throw ValidationError("--wallets-every must be 1–3600 seconds.") }
        guard (1...3_600).contains(eventsEvery) else { throw ValidationError("--events-every must be 1–3600 seconds.") }
        guard (0...10_080).contains(syncEvery) else { throw ValidationError("--sync-every must be 0–10080 minutes.") }
        guard deliveryLease.isFinite, (6...3_600).contains(deliveryLease) else { throw ValidationError("--delivery-lease must be 6–3600 seconds.") }
        if let pushSubject, !(pushSubject.hasPrefix("mailto:") || pushSubject.hasPrefix("https://")) || (pushSubject.utf8.count > 200) {
            throw ValidationError("--push-subject must be mailto:… or https://…, not '\(pushSubject)'.")
        }
        guard (0...1_000_000).contains(favoriteWritesPerMinute) else { throw ValidationError("--favorite-writes-per-minute must be 0–1000000.") }
        guard (1...1_000_000).contains(maxConnections), (1...1_000_000).contains(maxConnectionsPerIP) else {
            throw ValidationError("--max-connections and --max-connections-per-ip must be 1–1000000.")
        }
        guard (0...1_000_000).contains(webSocketConnectBurst), (1...1_000_000).contains(webSocketConnectsPerMinute) else {
            throw ValidationError("--ws-connect-burst must be 0–1000000 and --ws-connects-per-minute 1–1000000.")
        }
        guard idleAfter.isFinite, idleAfter == 0 || (1...86_400).contains(idleAfter) else {
            throw ValidationError("--idle-after must be 0 (never) or 1–86400 seconds.")
        }
        guard SignupPolicy(rawValue: signup.lowercased()) != nil else {
            throw ValidationError("--signup must be open, closed or invite, not '\(signup.prefix(20))'.")
        }
        guard (1...10_000).contains(coinGeckoCallsPerMinute) else { throw ValidationError("--coingecko-calls-per-minute must be 1–10000.") }
    }

    /// `LOG_LEVEL` (trace, debug, info, notice, warning, error, critical); a bad value fails
    /// start-up with one line rather than silently meaning info.
    static func logLevel(_ environment: [String: String]) throws -> Logger.Level {
        guard let text = environment["LOG_LEVEL"], !text.isEmpty else { return .info }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw CLIFailure.usage("sise: LOG_LEVEL must be trace, debug, info, notice, warning, error or critical, not '\(text.prefix(40))'.")
        }
        return level
    }

    func run() async throws {
        let settings = global.settings
        let format = (settings.sources.text(.logFormat, flag: logFormat) ?? "text").lowercased()
        guard format == "text" || format == "json" else {
            throw CLIFailure.usage("sise: --log-format must be text or json, not '\(format.prefix(20))'.")
        }
        // Every logger of the process (the demo simulator's, the libraries') writes the same format.
        if format == "json" { LoggingSystem.bootstrap { JSONLogHandler(label: $0) } }
        var logger = Logger(label: "sise.serve")
        logger.logLevel = try Self.logLevel(settings.sources.environment)
        var configuration = ServerConfiguration(
            host: host,
            port: port,
            demo: demo,
            dataDirectory: settings.dataDirectory(flag: storage.dataDirectory),
            version: SiseVersion.current,
            publicURL: publicURL.flatMap(URL.init(string:)),
            limits: ConnectionLimits(
                maxConnections: maxConnections,
                maxConnectionsPerAddress: maxConnectionsPerIP,
                webSocketConnectBurst: webSocketConnectBurst,
                webSocketConnectsPerSecond: Double(webSocketConnectsPerMinute) / 60
            ),
            favoriteWritesPerMinute: favoriteWritesPerMinute
        )
        configuration.signup = SignupPolicy(rawValue: signup.lowercased()) ?? .open
        configuration.passwordCost = passwordCost
        configuration.pushContact = pushSubject
        configuration.deliveryLease = .milliseconds(Int64(deliveryLease * 1_000))
        configuration.chats = try settings.chats(telegram: telegramAPIURL, discord: discordWebhookURL, slack: slackWebhookURL)
        let proxies = (settings.sources.text(.trustedProxy, flag: trustedProxy.isEmpty ? nil : trustedProxy.joined(separator: ",")) ?? "")
            .split(separator: ",").map(String.init).filter { !$0.isEmpty }
        guard let trusted = TrustedProxies(proxies) else {
            throw ValidationError("--trusted-proxy takes CIDRs such as 127.0.0.1/32 or 10.0.0.0/8, not '\(proxies.joined(separator: ","))'.")
        }
        configuration.trustedProxies = trusted
        configuration.metricsToken = settings.sources.text(.metricsToken, flag: metricsToken)
        let shownHost = host
        var providers = try LoginProviderSettings.providers(flags: login, sources: settings.sources)
        let premiumSettings = try PremiumSettings(premiumOptions, settings.sources)
        let app: any Service
        do {
            // The database first: nothing has to be closed again when it cannot be opened.
            let database = try await Root.store(settings, storage, logger: logger)
            let root = try await Root.live(
                settings,
                demo: demo ? .init(hostileNames: demoHostileNames, krwMarkets: demoMarkets) : nil,
                logger: logger
            )
            let upstreams = try LiveUpstreams.build(
                root,
                coinGecko: gecko,
                primary: .default,
                board: .init(exchange: .default, idleAfter: idleAfter == 0 ? nil : .milliseconds(Int64(idleAfter * 1_000))),
                silence: feed.silenceDuration,
                logger: logger
            )
            if let simulator = root.simulator, !providers.contains(where: { $0.id == "demo" }) {
                providers.append(LoginProviderSettings.demo(simulator: simulator.baseURL))
            }
            // Replicas on PostgreSQL share the cache and count the CoinGecko budget together.
            let coinInfo = CoinInfoService(
                api: upstreams.coinGecko,
                cache: DatabaseCache(database: database),
                callsPerMinute: coinGeckoCallsPerMinute,
                sharedBudget: database.dialect == .postgres ? CallCounter(database: database) : nil,
                now: root.clock.milliseconds
            )
            let premium = upstreams.premiumFeed(premiumSettings, coinInfo: coinInfo, logger: logger)
            let globalPrices = upstreams.globalPrices(premiumSettings, feed: premium, logger: logger)
            // 입출금 현황: one poller per exchange (a keyed one only with its key).
            let wallets = WalletService(
                feeds: root.walletFeeds(),
                interval: .seconds(walletsEvery),
                clock: root.clock,
                pace: root.ticks,
                logger: logger
            )
            let notices = NoticeService(feeds: root.noticeFeeds(), clock: root.clock, pace: root.ticks, logger: logger)
            var dependencies = ServerDependencies(
                boards: upstreams.boards,
                apis: upstreams.apis,
                coinInfo: coinInfo,
                database: database,
                images: root.images(),
                poster: Root.poster(allowPrivate: allowPrivateWebhooks),
                simulatorURL: root.simulator?.baseURL,
                identityProviders: providers.map(root.identity),
                premium: premium,
                services: upstreams.services + [coinInfo, premium, globalPrices, wallets, notices]
            )
            dependencies.globalPrices = globalPrices
            dependencies.wallets = wallets
            dependencies.notices = notices
            dependencies.eventsEvery = .seconds(eventsEvery)
            if syncEvery > 0 { dependencies.accountSyncEvery = .seconds(syncEvery * 60) }
            dependencies.globalBooks = root.globalAPIs(premiumSettings)
            if premiumHistory { dependencies.historyVenues = root.globalAPIs(premiumSettings) }
            dependencies.depthFeeds = upstreams.depthFeeds
            dependencies.silence = upstreams.silence
            dependencies.clock = root.clock
            dependencies.ticks = root.ticks
            dependencies.accountSources = { exchange, key in root.account(exchange, key: key) }
            dependencies.mcpTools = MCPCommand.tools(
                environment: MCPCommand.environment(global, storage, simulator: root.simulator?.baseURL),
                demo: root.simulator != nil,
                language: global.language,
                timeout: 30,
                terminal: false
            )
            app = try await SiseServerApp.build(configuration, dependencies: dependencies, logger: logger) { port in
                // Straight to the descriptor: scripts and tests wait for this line.
                FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(port)\n".utf8))
            }
        } catch let problem as ConfigFile.Problem {
            throw problem
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure(code: .unexpected, message: StartupFailure.message(error, language: global.language))
        }
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            // Binding the port happens here: a busy port is the common failure.
            throw CLIFailure(code: .unexpected, message: StartupFailure.message(error, language: global.language))
        }
    }
}
