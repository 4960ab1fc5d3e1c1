import Foundation
import ServiceLifecycle
import SiseCore
import SiseEngine
import SiseFeeds
import SiseMCP
import SiseStore

/// What `sise serve` is handed by its composition root (the `sise` target, or a test): the
/// engine and the clients, already built. The server builds none of them.
public struct ServerDependencies: Sendable {
    /// One live board per exchange.
    public var boards: ExchangeBoards
    /// Each exchange's REST client, for what the boards do not hold (candles for charts).
    public var apis: [Exchange: any ExchangeAPI]
    public var coinInfo: CoinInfoService
    public var database: AppDatabase
    public var images: any ImageFetching
    /// What posts alert webhooks, chats and Web Push (its own address rules: `--allow-private-webhooks`).
    public var poster: WebhookPoster
    /// The demo simulator (`http://127.0.0.1:PORT`): the image proxy may fetch its image path,
    /// and `/api/status` names it (for its fault switches); nil when live.
    public var simulatorURL: URL?
    /// The tools `POST /mcp` offers (the composition root's; none: an empty list).
    public var mcpTools: [MCPTool] = []
    /// The OpenID Connect providers people may log in with (built from configuration).
    public var identityProviders: [OpenIDClient]
    /// The kimchi premium's inputs (Binance, the FX rate); nil computes no premium.
    public var premium: PremiumFeed?
    /// The global venues' prices for the premium matrix (nil: no matrix).
    public var globalPrices: GlobalPrices?
    /// The venues the premium's history is recorded against, read once a minute (nil: this
    /// server records no history; it still answers it from the store).
    public var historyVenues: [GlobalVenue: any GlobalPriceAPI]?
    /// The dependencies' long-lived work (the simulator, the feed, the cache, closing the
    /// connection pool), in start order; run by the app's service group, which shuts them down
    /// in reverse after the HTTP server.
    public var services: [any Service]
    /// Each exchange's 호가/체결 stream, where it has one (they run among `services`); an exchange
    /// without one is read over REST.
    public var depthFeeds: [Exchange: DepthFeed] = [:]
    /// Every exchange's wallets (입출금 현황), polled by its own service (in `services`).
    public var wallets: WalletService?
    /// Every exchange's latest notices, polled by its own service (in `services`).
    public var notices: NoticeService?
    /// How often the history of changes looks at every exchange (nil: this server records none).
    public var eventsEvery: Duration? = nil
    /// Each global venue's order books (the executable premium reads them on demand).
    public var globalBooks: [GlobalVenue: any GlobalBookAPI] = [:]
    /// The stall bound of every upstream stream (`--silence`): a book older is delayed.
    public var silence: Duration = .seconds(5)
    /// The wall clock every route and rule of the server reads (tests may stop it).
    public var clock: WallClock = .system
    /// What the server's caches and paces measure durations on.
    public var ticks: any MonotonicClock = .system
    /// The client that reads a person's account on an exchange with their read-only key (nil:
    /// this server reads no exchange account; a key cannot be tried, so none is kept).
    public var accountSources: AccountDesk.Sources? = nil
    /// How often every kept key's trade history is synced (nil: only when asked).
    public var accountSyncEvery: Duration? = nil
    /// When the deemed-price recorder wakes around 2027-01-01 00:00 KST, reads, and reads again.
    public var deemedTiming = DeemedPriceRecorder.Timing()

    public init(
        boards: ExchangeBoards,
        apis: [Exchange: any ExchangeAPI],
        coinInfo: CoinInfoService,
        database: AppDatabase,
        images: any ImageFetching,
        poster: WebhookPoster,
        simulatorURL: URL? = nil,
        identityProviders: [OpenIDClient] = [],
        premium: PremiumFeed? = nil,
        services: [any Service]
    ) {
        self.boards = boards
        self.apis = apis
        self.coinInfo = coinInfo
        self.database = database
        self.images = images
        self.poster = poster
        self.simulatorURL = simulatorURL
        self.identityProviders = identityProviders
        self.premium = premium
        self.services = services
    }
}
