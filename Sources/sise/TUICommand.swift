import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore
import SiseTUI

/// `sise tui`: the full-screen terminal board.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Full-screen terminal board (live exchange data; --demo for the built-in simulator)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var feed: LiveFeedOptions
    @OptionGroup var gecko: CoinGeckoOptions
    @OptionGroup var venue: ExchangeOption
    @OptionGroup var premiumOptions: PremiumOptions

    @Flag(help: "Run the built-in simulator instead of the live exchanges (shows DEMO).")
    var demo = false

    @Option(help: "Quote market: KRW, BTC or USDT.")
    var quote: String = "KRW"

    @Flag(help: "Let the alerts' webhooks and chats (sise alerts webhook) reach loopback and private addresses.")
    var allowPrivateWebhooks = false

    @OptionGroup var storage: StoreOptions

    func validate() throws {
        guard let parsed = QuoteCurrency(code: quote) else { throw ValidationError("--quote must be KRW, BTC or USDT, not '\(quote)'.") }
        try venue.check(quote: parsed, global.language)
    }

    func run() async throws {
        var logger = Logger(label: "sise.tui")
        logger.logLevel = .critical  // the screen is ours; nothing may print over it
        let settings = global.settings
        let upstreams: LiveUpstreams
        let database: AppDatabase
        do {
            // The database first: nothing has to be closed again when it cannot be opened.
            database = try await Root.store(settings, storage)
            let root = try await Root.live(settings, demo: demo ? .init() : nil, logger: logger)
            upstreams = try LiveUpstreams.build(
                root,
                coinGecko: gecko,
                primary: venue.exchange,
                board: .init(exchange: venue.exchange),
                silence: feed.silenceDuration,
                logger: logger
            )
        } catch let problem as ConfigFile.Problem {
            throw problem
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure(code: .unexpected, message: StartupFailure.message(error, language: global.language))
        }
        let coinInfo = CoinInfoService(api: upstreams.coinGecko, cache: DatabaseCache(database: database), now: upstreams.root.clock.milliseconds)
        let premiumSettings = try PremiumSettings(premiumOptions, settings.sources)
        let premium = upstreams.premiumFeed(premiumSettings, coinInfo: coinInfo, logger: logger)
        let globalPrices = upstreams.globalPrices(premiumSettings, feed: premium, logger: logger)
        let wallets = WalletService(feeds: upstreams.root.walletFeeds(), clock: upstreams.root.clock, pace: upstreams.root.ticks, logger: logger)
        let apis = upstreams.apis
        let depthFeeds = upstreams.depthFeeds
        let silence = feed.silenceDuration
        let boards = upstreams.boards
        let alertStore = AlertStore(database: database)
        // The portfolio's exchange accounts: the kept keys, else the environment's.
        let root = upstreams.root
        let accountDesk = AccountDesk(
            keys: ExchangeKeyStore(database: database, clock: root.clock),
            sources: { exchange, key in root.account(exchange, key: key) },
            prices: { exchange, markets in await boards.krwPrices(exchange, markets) },
            clock: root.clock
        )
        let environmentKeys = AccountsCommand.environmentKeys(settings.sources)
        // The terminal's alerts reach its webhooks and chats as `sise watch --alerts` sends them
        // (a delivery still waiting at `q` is made by the next run: the queue is in the store).
        let webhooks = WebhookDispatcher(
            store: alertStore,
            poster: Root.poster(allowPrivate: allowPrivateWebhooks),
            chats: try settings.chats(),
            clock: upstreams.root.clock,
            logger: logger
        )
        var state = TUIState(
            quote: QuoteCurrency(code: quote) ?? .krw,
            language: global.language,
            demo: demo,
            exchange: venue.exchange,
            exchanges: Exchange.allCases
        )
        // The book's silence bound, as the board's (capped at a day: no overflow from a huge flag).
        state.bookStaleAfter = min(silence.components.seconds, 86_400) * 1_000 + silence.components.attoseconds / 1_000_000_000_000_000
        let app = TUIApp(
            boards: upstreams.boards,
            favorites: StoredFavorites(database: database, clock: upstreams.root.clock),
            state: state,
            chart: { exchange, id in
                guard let api = apis[exchange] else { return ([], nil) }
                let points = (try? await ChartPoints.load(api, market: id, range: .week)) ?? []
                // Only a ticker without its own 52-week figures (Korbit's) needs them from candles.
                let own = boards[exchange]?.snapshot.rows[id]?.ticker.highest52WeekPrice != nil
                return (points, own ? nil : await ChartPoints.yearRange(api, market: id))
            },
            trending: { try? await coinInfo.trending().value },
            ranking: { currency, blocks in
                guard let coins = try? await coinInfo.ranking(currency: currency, blocks: blocks) else { return nil }
                let global = try? await coinInfo.global().value
                let asOf = KSTText.timestamp(coins.fetchedAt)
                let note =
                    coins.retryAt.map { UIText.staleRateLimited(settings.language, ["asOf": asOf, "at": KSTText.timestamp($0)]) }
                    ?? (coins.stale ? UIText.staleRefreshing(settings.language, ["asOf": asOf]) : nil)
                return RankingLoad(coins: coins.value, global: global, staleNote: note)
            },
            premium: premium,
            globalPrices: globalPrices,
            wallets: wallets,
            portfolio: PortfolioStore(database: database, clock: upstreams.root.clock),
            deemed: DeemedPriceFill(store: DeemedPriceStore(database: database)) { exchange, coins in
                guard let api = apis[exchange] else { return [] }
                return await DeemedCandles.read(coins, on: exchange, api: api, instant: TaxRules.deemedInstant)
            },
            accounts: {
                let holdings = try? await accountDesk.holdings(owner: LocalData.owner, extra: environmentKeys, language: settings.language)
                return holdings?.sources.isEmpty == false ? holdings : nil
            },
            alerts: alertStore,
            deliver: { webhooks.enqueue($0) },
            depthFeeds: depthFeeds,
            candles: { exchange, id in
                guard let api = apis[exchange] else { return [] }
                return (try? await api.candles(market: id, unit: .minutes(60), count: 200, to: nil)) ?? []
            },
            depth: { exchange, id in
                guard let api = apis[exchange] else { return DepthRead(book: nil, tape: [], unreadable: true) }
                // From the exchange's depth WebSocket while it brings books; over REST
                // (which also fills the tape the stream only adds to) where it has none,
                // or while it is silent.
                let feed = depthFeeds[exchange]
                feed?.watch([id])
                if let book = feed?.freshBook(id, within: silence), let tape = feed?.tape(id)?.value { return DepthRead(book: book, tape: tape) }
                async let tape = api.trades(market: id, count: TradeTape.limit)
                // Only a consistent book is shown; a crossed or unsorted one reads as none.
                let answer = try? await api.orderbook(market: id)
                let trades = (try? await tape) ?? []
                feed?.seed(id, trades: trades)
                return DepthRead(
                    book: try? answer?.checked(),
                    tape: feed?.tape(id)?.value ?? TradeTape.newestFirst(trades),
                    // The stream brought books, but none within the silence bound.
                    delayed: feed?.book(id) != nil,
                    unreadable: answer == nil
                )
            },
            clock: upstreams.root.clock,
            ticks: upstreams.root.ticks
        )
        let screen = TerminalScreen(app: app, session: TerminalSession())
        // The screen owns the keyboard and the signals (q, Ctrl-C): when it ends, the group
        // shuts the feeds down in reverse order and the terminal is already restored.
        let group = ServiceGroup(
            configuration: .init(
                services: (upstreams.services + [coinInfo, premium, globalPrices, wallets, webhooks]).map { .init(service: $0) }
                    + [
                        .init(
                            service: screen,
                            successTerminationBehavior: .gracefullyShutdownGroup,
                            failureTerminationBehavior: .gracefullyShutdownGroup
                        )
                    ],
                gracefulShutdownSignals: [],
                logger: logger
            )
        )
        do {
            try await group.run()
        } catch {
            throw CLIFailure(
                code: error is TerminalError ? .usage : .unexpected,
                message: StartupFailure.message(error, language: global.language)
            )
        }
    }
}

/// The terminal UI as a service: runs until `q` or a signal, restoring the terminal on every way out.
struct TerminalScreen: Service {
    let app: TUIApp
    let session: TerminalSession

    func run() async throws {
        defer { session.restore() }
        try await app.run(session: session)
    }
}
