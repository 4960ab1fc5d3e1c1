import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator

/// The composition root of the live faces (`serve`, `tui`, `watch`): every upstream client is
/// built here, once, from the settings — or, with `--demo`, pointed at the built-in simulator —
/// and handed down. Library modules build none.
struct LiveUpstreams {
    let transport: LiveHTTPTransport
    /// Each exchange's REST client (for what boards do not hold: candles, one-off rows).
    let apis: [Exchange: any ExchangeAPI]
    let upbit: any ExchangeAPI
    let boards: ExchangeBoards
    let coinGecko: CoinGeckoClient
    /// The built-in simulator when `--demo`.
    let simulator: RunningSimulator?
    /// The exchanges whose boards run (Upbit's board always exists, as the default the
    /// server's routes fall back to, but runs only when asked for).
    let running: [Exchange]
    /// The stall bound every upstream stream is held to (`--silence`), Binance's included.
    let silence: Duration
    /// Each exchange's 호가/체결 stream (opened only while someone watches a market's book).
    let depthFeeds: [Exchange: DepthFeed]

    struct Demo {
        var hostileNames = false
    }

    /// Starts the simulator first when `demo` is set (the clients need its port), then builds
    /// the clients and one board per exchange in `exchanges` (Upbit's always). The `primary`
    /// exchange's board runs as `configuration` says; the others start idle and run only while
    /// someone watches them (a minute's grace after the last). Nothing runs until `services` run.
    static func build(_ settings: Settings, coinGecko: CoinGeckoClient.Configuration, demo: Demo?,
                      exchanges: [Exchange] = Exchange.allCases, primary: Exchange = .default,
                      board configuration: LiveBoardConfiguration,
                      silence: Duration, logger: Logger) async throws -> LiveUpstreams {
        var endpoints = Dictionary(uniqueKeysWithValues: Exchange.allCases.map { ($0, settings.endpoint($0)) })
        var gecko = coinGecko
        var simulator: RunningSimulator?
        if let demo {
            let running = try await RunningSimulator.start(SimulatorConfiguration(hostileNames: demo.hostileNames))
            simulator = running
            endpoints = Dictionary(uniqueKeysWithValues: ExchangeRegistry.all.map { ($0.exchange, $0.simulated(at: running.baseURL)) })
            gecko = .init(baseURL: running.baseURL.appendingPathComponent("api/v3"))
            logger.info("demo: simulator on \(running.baseURL.absoluteString)")
        }
        let transport = LiveHTTPTransport()
        let lenders = ExchangeRegistry.lenders(endpoints, transport: transport)
        var apis: [Exchange: any ExchangeAPI] = [:]
        var boards: [Exchange: LiveBoard] = [:]
        var depthFeeds: [Exchange: DepthFeed] = [:]
        for spec in ExchangeRegistry.all where exchanges.contains(spec.exchange) || spec.exchange == .default {
            let exchange = spec.exchange
            guard let endpoint = endpoints[exchange] else { continue }
            let api = spec.api(endpoint, transport: transport, lenders: spec.borrowsNames ? lenders : [])
            apis[exchange] = api
            var boardConfiguration = configuration
            boardConfiguration.exchange = exchange
            if exchange != primary {
                boardConfiguration.idleAfter = configuration.idleAfter ?? .seconds(60)
                boardConfiguration.startsIdle = true
            }
            boardConfiguration.quotes = configuration.quotes.filter(exchange.quotes.contains)
            if boardConfiguration.quotes.isEmpty { boardConfiguration.quotes = [.krw] }
            boards[exchange] = LiveBoard(configuration: boardConfiguration, api: api,
                                         stream: spec.stream(endpoint, silence: silence, logger: logger), logger: logger)
            depthFeeds[exchange] = spec.depthStream(endpoint, silence: silence, logger: logger).map {
                DepthFeed(exchange: exchange, stream: $0, logger: logger)
            }
        }
        let upbitAPI = apis[.default] ?? ExchangeRegistry.spec(.default).api(settings.endpoint(.default), transport: transport)
        var upbitConfiguration = configuration
        upbitConfiguration.exchange = .default
        let upbitBoard = boards[.default] ?? LiveBoard(configuration: upbitConfiguration, api: upbitAPI,
                                                       stream: ExchangeRegistry.spec(.default).stream(settings.endpoint(.default), silence: silence, logger: logger),
                                                       logger: logger)
        return LiveUpstreams(
            transport: transport, apis: apis, upbit: upbitAPI, boards: ExchangeBoards(default: upbitBoard, others: boards),
            coinGecko: CoinGeckoClient(configuration: gecko, transport: transport), simulator: simulator,
            running: exchanges, silence: silence, depthFeeds: depthFeeds)
    }

    /// The demo simulator's origin, whose images the image proxy may fetch.
    var demoOrigin: String? { simulator?.baseURL.absoluteString }

    /// In start order (a service group shuts them down in reverse): the simulator, closing the
    /// connection pools (the exchanges' and the pinned webhook and image clients), the boards.
    var services: [any Service] {
        let transport = transport
        return (simulator.map { [$0] } ?? []) + [ShutdownHook { await transport.shutdown(); await PinnedHTTPClients.shared.shutdown() }]
            + boards.all.filter { running.contains($0.exchange) }.map(\.board)
            + depthFeeds.filter { running.contains($0.key) }.values.sorted { $0.exchange.rawValue < $1.exchange.rawValue }
    }
}
