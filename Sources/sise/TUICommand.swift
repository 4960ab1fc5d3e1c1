import ArgumentParser
import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseServer
import SiseSimulator
import SiseStore
import SiseTUI

/// `sise tui`: the full-screen terminal board.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Full-screen terminal board (live Upbit; --demo for the built-in simulator)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var feed: LiveFeedOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Flag(help: "Run the built-in simulator instead of live Upbit (shows DEMO).")
    var demo = false

    @Option(help: "Quote market: KRW, BTC or USDT.")
    var quote: String = "KRW"

    @Option(name: .customLong("data-dir"), help: "Data directory shared with sise serve (favorites).")
    var dataDirectory: String?

    func validate() throws {
        guard QuoteCurrency(code: quote) != nil else { throw ValidationError("--quote must be KRW, BTC or USDT, not '\(quote)'.") }
    }

    func run() async throws {
        var logger = Logger(label: "sise.tui")
        logger.logLevel = .critical   // the screen is ours; nothing may print over it
        var simulator: RunningSimulator?
        var restURL = global.upbitURL
        var webSocketURL: URL? = global.upbitWebSocketURL
        var geckoConfiguration = gecko.configuration
        if demo {
            let running = try await RunningSimulator.start()
            simulator = running
            restURL = running.baseURL
            webSocketURL = nil
            geckoConfiguration = .init(baseURL: running.baseURL.appendingPathComponent("api/v3"))
        }
        let directory = dataDirectory.map { URL(fileURLWithPath: $0) } ?? ServerConfiguration.defaultDataDirectory()
        let database: AppDatabase
        do {
            database = try AppDatabase.open(directory: directory)
        } catch let error as StoreError {
            throw CLIFailure(code: .unexpected, message: "sise: \(error.message)")
        }
        let upbit = UpbitBoard(restURL: restURL, webSocketURL: webSocketURL, silence: feed.silenceDuration, logger: logger)
        let engine = Task { try await upbit.board.run() }
        let coinInfo = CoinInfoService(api: CoinGeckoClient(configuration: geckoConfiguration, transport: upbit.transport),
                                       cache: SQLiteCache(database: database))
        let api = upbit.api
        let app = TUIApp(board: upbit.board, favorites: SQLiteFavorites(database: database),
                         state: TUIState(quote: QuoteCurrency(code: quote)!, language: global.language, demo: demo),
                         chart: { id in (try? await UpbitChartPoints.load(api, market: id, range: .week)) ?? [] },
                         trending: { try? await coinInfo.trending().value })
        let session = TerminalSession()
        var failure: (any Error)?
        do {
            try await app.run(session: session)
        } catch {
            failure = error
        }
        session.restore()
        engine.cancel()
        _ = await engine.result
        await upbit.transport.shutdown()
        await simulator?.stop()
        if let failure {
            throw CLIFailure(code: failure is TerminalError ? .usage : .unexpected,
                             message: StartupFailure.message(failure, language: global.language))
        }
    }
}
