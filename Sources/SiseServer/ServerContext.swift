import Foundation
import Hummingbird
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// What every controller needs: the live board, the favorites store and the app's facts.
struct ServerContext: Sendable {
    let boards: ExchangeBoards
    let favorites: any FavoritesRepository
    let coinInfo: CoinInfoService
    /// Each exchange's REST client behind its candle cache.
    let candles: [Exchange: CandleCache]
    let demo: Bool
    let simulatorURL: URL?
    let version: String
    /// Told when a device's favorites change, so live views that show favorites follow.
    let favoritesChanged: @Sendable (String) async -> Void
    let favoriteWrites: WriteRateLimit
    /// The kimchi premium's live inputs (nil: this server computes no premium).
    var premium: PremiumFeed? = nil
    /// The market's 김프 through the day (with a feed).
    var premiumHistory: PremiumHistory? = nil
    /// The premium's kept history (recorded by this server or another replica).
    var premiumStore: PremiumHistoryStore? = nil
    /// 테더 김프's day lines for the board's bar, drawn once a minute.
    var tetherLines: TetherDayLines? = nil
    /// The global venues' prices (the premium matrix).
    var globalPrices: GlobalPrices? = nil
    /// The premium's inputs against a chosen venue (the board's 김프 column).
    var premiumSources: PremiumSources? = nil
    /// Every exchange's wallets (입출금 현황).
    var wallets: WalletService? = nil
    /// Every exchange's latest notices.
    var notices: NoticeService? = nil
    /// The history of every change (listings, flags, wallets), recorded by any replica.
    var events: MarketEventStore? = nil
    /// The executable premium's books, rate and wallets.
    var executable: ExecutablePremiumReader? = nil
    /// Every exchange's KRW-USDT for 테더 김프.
    var tether: TetherQuotes? = nil
    /// The wall clock (the dependencies' one).
    var clock: WallClock = .system

    /// The premium inputs now (none when there is no feed: every premium is unknown).
    var premiumInputs: PremiumInputs { premium?.inputs ?? .none }

    /// The premium inputs against `venue` on `exchange`: the venue's own prices, as the board and the matrix read them (`premiumInputs` has CoinGecko's stand-ins, named as such).
    func premiumInputs(_ venue: GlobalVenue, exchange: Exchange) -> PremiumInputs {
        premiumSources?.inputs(venue, exchange: exchange) ?? premiumInputs
    }

    /// 테더 김프 of `exchanges` against the official rate, in `language`.
    func tetherTable(_ exchanges: [Exchange], language: Language) async -> TetherPremiumTable {
        let official = premium?.status.official ?? FXDecision(chosen: nil, quote: nil)
        let quotes = await tether?.quotes(exchanges) ?? exchanges.map(USDTQuote.unlisted)
        return TetherPremiumTable(quotes: quotes, official: official, now: clock.now, language: language)
    }

    /// The favorites of `owner` that are Upbit markets.
    /// How long a board request waits for the first board before answering 503.
    static let firstBoardWait = Duration.seconds(3)

    /// Waits (briefly) for the board's first data; 503 with `Retry-After` when it is not there:
    /// an empty board before the first load must never read as "no markets".
    func requireBoard(_ exchange: Exchange) async throws {
        let board = try self.board(exchange)
        board.touch()
        guard await board.waitForData(upTo: Self.firstBoardWait) else {
            throw APIError.loading(exchange, retryAfter: 1)
        }
    }

    /// 429 with `Retry-After` when this address wrote (favorites, portfolio, alerts) too often
    /// in the last minute.
    func admitWrite(_ ctx: SiseRequestContext) async throws {
        if let wait = await favoriteWrites.take(ctx.clientAddress, now: clock.now) {
            var error = APIError(status: .tooManyRequests, code: "too_many_writes", UIText.tooManyWrites, ["seconds": String(wait)])
            error.retryAfter = wait
            throw error
        }
    }

    /// Upbit's board (the default everywhere).
    var board: LiveBoard { boards.defaultBoard }

    /// The board of `exchange`; 404 when this server does not run it.
    func board(_ exchange: Exchange) throws(APIError) -> LiveBoard {
        guard let board = boards[exchange] else { throw APIError.notFound(.missingExchange, ["name": exchange.displayName]) }
        return board
    }

    /// The one listing rule (`MarketListing`) on the exchange's live board: a quote the exchange
    /// lacks is a 400 at once, a market it does not list a 404 once its board is known.
    func requireListed(_ market: MarketID, on exchange: Exchange) throws(APIError) {
        let board = try board(exchange)
        do {
            if let quote = QuoteCurrency(code: market.quote) { try MarketListing.check(quote: quote, on: exchange) }
            if board.hasData { try MarketListing(exchange: exchange, listed: board.snapshot.rows.keys).check(market) }
        } catch {
            throw APIError.listing(error)
        }
    }

    /// The REST client (behind its candle cache) of `exchange`.
    func api(_ exchange: Exchange) throws -> CandleCache {
        guard let api = candles[exchange] else { throw APIError.notFound(.missingExchange, ["name": exchange.displayName]) }
        return api
    }

    /// `?exchange=` (default upbit); a bad one is a 400 that names it.
    static func exchange(_ request: Request) throws -> Exchange {
        guard let text = request.uri.queryParameters["exchange"].map(String.init), !text.isEmpty else { return .default }
        guard let exchange = Exchange(name: text) else { throw APIError.badParameter(.exchange, .exchanges) }
        return exchange
    }

    /// `?symbol=` (one coin, upper-cased), nil when absent or empty.
    static func symbol(_ request: Request) throws -> String? {
        guard let text = request.uri.queryParameters["symbol"].map({ String($0).uppercased() }), !text.isEmpty else { return nil }
        guard CoinTicker.isValid(text) else { throw APIError.badParameter(.symbol, .symbolList(1)) }
        return text
    }

    /// `?venue=` (the premium's global venue), Binance when absent.
    static func venue(_ request: Request) throws -> GlobalVenue {
        guard let text = request.uri.queryParameters["venue"].map(String.init), !text.isEmpty else { return .binance }
        guard let venue = GlobalVenue(name: text) else { throw APIError.badParameter(.venue, .oneOf(GlobalVenue.allCases.map(\.rawValue))) }
        return venue
    }

    /// The favorites of `owner` that are markets of `exchange`.
    func favoriteMarkets(_ owner: String, exchange: Exchange) async throws -> Set<MarketID> {
        Set(
            try await favorites.list(owner: owner).compactMap { key -> MarketID? in
                guard case .market(let code, let on)? = FavoriteItem(key), on == exchange else { return nil }
                return MarketID(code)
            }
        )
    }
}
