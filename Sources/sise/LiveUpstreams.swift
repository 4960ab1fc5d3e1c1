import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator

/// The live faces' upstreams (`serve`, `tui`, `watch`): one board and one 호가/체결 feed per
/// exchange, over the clients the root built, and the services that run them.
struct LiveUpstreams {
    let root: Root
    /// Each exchange's REST client (for what boards do not hold: candles, one-off rows).
    let apis: [Exchange: any ExchangeAPI]
    let boards: ExchangeBoards
    let coinGecko: CoinGeckoClient
    /// The exchanges whose boards run (Upbit's board always exists, as the default the
    /// server's routes fall back to, but runs only when asked for).
    let running: [Exchange]
    /// The stall bound every upstream stream is held to (`--silence`), Binance's included.
    let silence: Duration
    /// Each exchange's 호가/체결 stream (opened only while someone watches a market's book).
    let depthFeeds: [Exchange: DepthFeed]

    var transport: LiveHTTPTransport { root.transport }
    /// The built-in simulator when `--demo`.
    var simulator: RunningSimulator? { root.simulator }

    /// One board per exchange in `exchanges` (Upbit's always). The `primary` exchange's board
    /// runs as `configuration` says; the others start idle and run only while someone watches
    /// them (a minute's grace after the last). Nothing runs until `services` run.
    static func build(
        _ root: Root,
        coinGecko: CoinGeckoOptions,
        exchanges: [Exchange] = Exchange.allCases,
        primary: Exchange,
        board configuration: LiveBoardConfiguration,
        silence: Duration,
        logger: Logger
    ) throws -> LiveUpstreams {
        var apis: [Exchange: any ExchangeAPI] = [:]
        var boards: [Exchange: LiveBoard] = [:]
        var depthFeeds: [Exchange: DepthFeed] = [:]
        for spec in ExchangeRegistry.all where exchanges.contains(spec.exchange) || spec.exchange == .default {
            let exchange = spec.exchange
            let api = root.api(exchange)
            apis[exchange] = api
            var boardConfiguration = configuration
            boardConfiguration.exchange = exchange
            if exchange != primary {
                boardConfiguration.idleAfter = configuration.idleAfter ?? .seconds(60)
                boardConfiguration.startsIdle = true
            }
            boardConfiguration.quotes = configuration.quotes.filter(exchange.quotes.contains)
            if boardConfiguration.quotes.isEmpty { boardConfiguration.quotes = [.krw] }
            boards[exchange] = LiveBoard(
                configuration: boardConfiguration,
                api: api,
                stream: root.tickerStream(exchange, silence: silence, logger: logger),
                now: root.clock.milliseconds,
                clock: root.ticks,
                pace: root.ticks,
                logger: logger
            )
            depthFeeds[exchange] = root.depthFeed(exchange, silence: silence, logger: logger)
        }
        var upbitConfiguration = configuration
        upbitConfiguration.exchange = .default
        let upbitBoard =
            boards[.default]
            ?? LiveBoard(
                configuration: upbitConfiguration,
                api: root.api(.default),
                stream: root.tickerStream(.default, silence: silence, logger: logger),
                now: root.clock.milliseconds,
                clock: root.ticks,
                pace: root.ticks,
                logger: logger
            )
        return LiveUpstreams(
            root: root,
            apis: apis,
            boards: ExchangeBoards(default: upbitBoard, others: boards),
            coinGecko: try root.coinGecko(coinGecko),
            running: exchanges,
            silence: silence,
            depthFeeds: depthFeeds
        )
    }

    /// In start order (a service group shuts them down in reverse): the simulator, closing the
    /// connection pools, the boards, the depth feeds.
    var services: [any Service] {
        let root = root
        return (simulator.map { [$0] } ?? []) + [ShutdownHook { await root.shutdown() }]
            + boards.all.filter { running.contains($0.exchange) }.map(\.board)
            + depthFeeds.filter { running.contains($0.key) }.values.sorted { $0.exchange.rawValue < $1.exchange.rawValue }
    }
}
