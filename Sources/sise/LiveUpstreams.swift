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

    struct Demo {
        var hostileNames = false
    }

    /// Starts the simulator first when `demo` is set (the clients need its port), then builds
    /// the clients and one board per exchange in `exchanges` (Upbit's always). The `primary`
    /// exchange's board runs as `configuration` says; the others start idle and run only while
    /// someone watches them (a minute's grace after the last). Nothing runs until `services` run.
    static func build(_ settings: Settings, coinGecko: CoinGeckoClient.Configuration, demo: Demo?,
                      exchanges: [Exchange] = Exchange.allCases, primary: Exchange = .default,
                      board configuration: LiveBoardConfiguration = .init(),
                      silence: Duration, logger: Logger) async throws -> LiveUpstreams {
        var endpoints = Dictionary(uniqueKeysWithValues: Exchange.allCases.map { ($0, settings.endpoint($0)) })
        var gecko = coinGecko
        var simulator: RunningSimulator?
        if let demo {
            let running = try await RunningSimulator.start(SimulatorConfiguration(hostileNames: demo.hostileNames))
            simulator = running
            endpoints = Dictionary(uniqueKeysWithValues: Exchange.allCases.map { exchange in
                let rest = exchange == .bithumb ? running.baseURL.appendingPathComponent("bithumb") : running.baseURL
                return (exchange, ExchangeEndpoint(exchange: exchange, rest: rest, webSocket: ExchangeEndpoint.webSocketURL(exchange, rest: rest)))
            })
            gecko = .init(baseURL: running.baseURL.appendingPathComponent("api/v3"))
            logger.info("demo: simulator on \(running.baseURL.absoluteString)")
        }
        let transport = LiveHTTPTransport()
        var apis: [Exchange: any ExchangeAPI] = [:]
        var boards: [Exchange: LiveBoard] = [:]
        for exchange in Exchange.allCases where exchanges.contains(exchange) {
            guard let endpoint = endpoints[exchange] else { continue }
            let lenders = exchange == .korbit ? [Exchange.upbit, .bithumb].compactMap { endpoints[$0] } : []
            let api = ExchangeClients.api(exchange, endpoint, transport: transport, lenders: lenders)
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
                                         stream: ExchangeClients.stream(endpoint, silence: silence, logger: logger), logger: logger)
        }
        let upbitAPI = apis[.upbit] ?? ExchangeClients.api(.upbit, settings.endpoint(.upbit), transport: transport)
        let upbitBoard = boards[.upbit] ?? LiveBoard(configuration: configuration, api: upbitAPI,
                                                     stream: ExchangeClients.stream(settings.endpoint(.upbit), silence: silence, logger: logger),
                                                     logger: logger)
        return LiveUpstreams(
            transport: transport, apis: apis, upbit: upbitAPI, boards: ExchangeBoards(upbit: upbitBoard, others: boards),
            coinGecko: CoinGeckoClient(configuration: gecko, transport: transport), simulator: simulator,
            running: exchanges)
    }

    /// The demo simulator's origin, whose images the image proxy may fetch.
    var demoOrigin: String? { simulator?.baseURL.absoluteString }

    /// In start order (a service group shuts them down in reverse): the simulator, closing the
    /// connection pool, the boards.
    var services: [any Service] {
        let transport = transport
        return (simulator.map { [$0] } ?? []) + [ShutdownHook { await transport.shutdown() }]
            + boards.all.filter { running.contains($0.exchange) }.map(\.board)
    }
}
