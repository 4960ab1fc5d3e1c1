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
    let upbit: UpbitClient
    let board: LiveBoard
    let coinGecko: CoinGeckoClient
    /// The built-in simulator when `--demo`.
    let simulator: RunningSimulator?

    struct Demo {
        var hostileNames = false
    }

    /// Starts the simulator first when `demo` is set (the clients need its port), then builds
    /// the clients. Nothing runs until `services` run.
    static func build(_ settings: Settings, coinGecko: CoinGeckoClient.Configuration, demo: Demo?,
                      board configuration: LiveBoardConfiguration = .init(), silence: Duration,
                      logger: Logger) async throws -> LiveUpstreams {
        var restURL = settings.upbitURL
        var webSocketURL = settings.upbitWebSocketURL ?? UpbitStreamConfiguration.webSocketURL(forREST: restURL)
        var gecko = coinGecko
        var simulator: RunningSimulator?
        if let demo {
            let running = try await RunningSimulator.start(SimulatorConfiguration(hostileNames: demo.hostileNames))
            simulator = running
            restURL = running.baseURL
            webSocketURL = UpbitStreamConfiguration.webSocketURL(forREST: running.baseURL)
            gecko = .init(baseURL: running.baseURL.appendingPathComponent("api/v3"))
            logger.info("demo: simulator on \(running.baseURL.absoluteString)")
        }
        let transport = LiveHTTPTransport()
        let upbit = UpbitClient(configuration: .init(baseURL: restURL), transport: transport)
        let stream = UpbitTickerStream(configuration: .init(url: webSocketURL, silenceTimeout: silence), logger: logger)
        return LiveUpstreams(
            transport: transport, upbit: upbit,
            board: LiveBoard(configuration: configuration, api: upbit, stream: stream, logger: logger),
            coinGecko: CoinGeckoClient(configuration: gecko, transport: transport),
            simulator: simulator)
    }

    /// The demo simulator's origin, whose images the image proxy may fetch.
    var demoOrigin: String? { simulator?.baseURL.absoluteString }

    /// In start order (a service group shuts them down in reverse): the simulator, closing the
    /// connection pool, the board.
    var services: [any Service] {
        let transport = transport
        return (simulator.map { [$0] } ?? []) + [ShutdownHook { await transport.shutdown() }, board]
    }
}
