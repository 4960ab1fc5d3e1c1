import Foundation
import SiseCore

/// Everything the TUI shows besides the board itself, changed only by keys and time.
public struct TUIState: Sendable {
    public enum Screen: Sendable, Equatable { case board, detail, help, trending, compare, ranking, portfolio, matrix }

    /// The ranking screen (`r`): CoinGecko's market-cap ranking, its page, sort and search.
    public struct Ranking: Sendable {
        public var coins: [RankedCoin]?
        public var global: GlobalMarket?
        /// Why the figures are old, when they are (CoinGecko's budget, a refresh under way).
        public var staleNote: String?
        public var request = RankingRequest()
        public var loadedAt: Int64 = 0

        public init() {}
    }

    public var screen: Screen = .board
    /// The exchange on the board; `e` cycles through `exchanges`.
    public var exchange: Exchange = .default
    public var exchanges: [Exchange] = [.default]
    public var quote: QuoteCurrency
    public var sort: SortState = .default
    public var search = ""
    public var searching = false
    /// The alert being typed after `a` (nil: no prompt open).
    public var alertPrompt: String?
    public var favoritesOnly = false
    /// The current exchange's favorite markets.
    public var favorites: Set<MarketID> = []
    public var selected = 0
    public var scroll = 0
    public var language: Language
    public var demo: Bool
    /// Markets whose price just changed: direction and until when (epoch ms) to highlight.
    public var flashes: [MarketID: (tone: Tone, until: Int64)] = [:]
    public var message: String?
    /// The detail screen's chart (loaded when the detail opens).
    /// The detail's week of prices, and its 52-week range when the exchange's ticker lacks one.
    public var chart: (market: MarketID, points: [PricePoint], year: YearRange?)?
    /// CoinGecko trending, once loaded.
    public var trending: Trending?
    public var ranking = Ranking()
    /// The kimchi premium's inputs at the last frame (none without a feed).
    public var premium = PremiumInputs.none
    /// This exchange's 테더 김프 at the last frame (its KRW-USDT over the official rate).
    public var tether: Double?
    /// This exchange's wallets (입출금 현황) at the last frame (nil: nobody reads them).
    public var wallets: WalletReport?
    /// The global venue the premium matrix (`m`) shows; `V` cycles them.
    public var matrixVenue: GlobalVenue = .binance
    /// Favorite CoinGecko coins (the ranking's stars).
    public var favoriteCoins: Set<String> = []
    /// The detail screen draws hourly candles (`v`) instead of the week's line.
    public var detailCandles = false
    /// The detail screen's hourly candles, oldest first (loaded when `v` turns them on).
    public var candles: (market: MarketID, candles: [Candle])?
    /// The detail screen's 호가 (`o`) or 체결 (`t`) in place of the chart; nil for the chart.
    public var depth: DepthMode?
    /// The detail market's last consistent book and tape (read every second while shown).
    public var depthLoad: DepthLoad?
    /// A book no read has renewed for this long is stale, in ms (`--silence`).
    public var bookStaleAfter: Int64 = 5_000
    /// The terminal's portfolio at the boards' prices (`p`), revalued every frame it shows.
    public var portfolio: PortfolioReport?
    /// The portfolio's tax line: this tax year's preview in one line (nil while it is worked out).
    public var tax: String?
    /// The exchange accounts' holdings under the portfolio (nil: no key connected, or not read yet).
    public var accounts: AccountHoldings?
    /// Markets whose alert just fired, highlighted until then (epoch ms).
    public var alerted: [MarketID: Int64] = [:]

    public init(
        quote: QuoteCurrency = .krw,
        language: Language = .ko,
        demo: Bool = false,
        exchange: Exchange = .default,
        exchanges: [Exchange] = [.default]
    ) {
        self.quote = quote
        self.exchange = exchange
        self.exchanges = exchanges.contains(exchange) ? exchanges : [exchange] + exchanges
        self.language = language
        self.demo = demo
    }

    /// The ranking page on screen, given the Korean listings of the boards.
    public func rankingPage(listings: [String: KoreanListing]) -> RankingPage? {
        ranking.coins.map { ranking.request.page($0, listings: listings, favorites: favoriteCoins, language: language) }
    }

    public var query: BoardQuery {
        BoardQuery(quote: quote, sort: sort, search: search, favorites: favoritesOnly ? favorites : nil, language: language)
    }

    /// Keeps the selection inside `count` rows and visible in a window of `visible` rows.
    public mutating func clamp(count: Int, visible: Int) {
        selected = min(max(selected, 0), max(count - 1, 0))
        if selected < scroll { scroll = selected }
        if visible > 0, selected >= scroll + visible { scroll = selected - visible + 1 }
        scroll = min(max(scroll, 0), max(count - visible, 0))
    }
}

/// What the detail screen shows in place of the chart.
public enum DepthMode: Sendable, Equatable {
    case book
    case tape
}

/// A market's book (nil when the exchange sent none that is consistent, or no answer came) and
/// tape, as loaded.
public struct DepthLoad: Sendable {
    public var market: MarketID
    public var book: Orderbook?
    public var tape: [Trade]
    /// Epoch ms of the load (moved on when the next one is asked).
    public var at: Int64
    /// How fresh the book is.
    public var state: BookState
    /// Epoch ms when the book shown was read.
    public var received: Int64
    /// No answer came (as opposed to an inconsistent one).
    public var unreadable: Bool

    public init(market: MarketID, book: Orderbook?, tape: [Trade], at: Int64, state: BookState = .live, unreadable: Bool = false) {
        self.market = market
        self.book = book
        self.tape = tape
        self.at = at
        self.state = state
        self.received = at
        self.unreadable = unreadable
    }

    /// What one read brought, at `at`.
    public init(market: MarketID, read: DepthRead, at: Int64) {
        self.init(market: market, book: read.book, tape: read.tape, at: at, state: read.delayed ? .delayed : .live, unreadable: read.unreadable)
    }
}

/// One read of a market's book and tape by the terminal: `book` nil when the answer was not
/// consistent, or when none came (`unreadable`); `delayed` when it was read over REST because the
/// exchange's stream is silent.
public struct DepthRead: Sendable {
    public var book: Orderbook?
    public var tape: [Trade]
    public var delayed: Bool
    public var unreadable: Bool

    public init(book: Orderbook?, tape: [Trade], delayed: Bool = false, unreadable: Bool = false) {
        self.book = book
        self.tape = tape
        self.delayed = delayed
        self.unreadable = unreadable
    }
}
