import Foundation

/// The columns a ranking sorts by; raw values are the CLI/API spellings.
public enum RankingSortKey: String, CaseIterable, Sendable, Codable {
    case rank, price, change1h, change24h, change7d, marketCap, volume
}

/// A ranking's sort: a column and a direction, walked by the board's 3-state cycle.
/// Descending is "best first": highest price, change, cap or volume — and rank 1 first.
/// `none` is CoinGecko's order (rank 1 first).
public struct RankingSort: Hashable, Sendable {
    public var key: RankingSortKey
    public var direction: SortDirection

    public init(key: RankingSortKey = .rank, direction: SortDirection = .none) {
        self.key = key
        self.direction = direction
    }

    /// The same request rule as the board's: a column alone sorts it descending; `none` is the
    /// default order.
    public static func requested(key: RankingSortKey?, direction: SortDirection?) -> RankingSort {
        let direction = direction ?? .descending
        guard direction != .none, let key else { return direction == .ascending ? RankingSort(key: .rank, direction: .ascending) : RankingSort() }
        return RankingSort(key: key, direction: direction)
    }

    public func tapping(_ tapped: RankingSortKey) -> RankingSort {
        RankingSort(key: tapped, direction: direction.tapped(sameColumn: tapped == key))
    }

    /// The direction a header shows: only the active column has one.
    public func direction(of column: RankingSortKey) -> SortDirection {
        column == key ? direction : .none
    }
}

/// One row of the ranking as every face shows it: the coin, its Korean listing (when the coin
/// is the best-ranked one with that symbol: a `BTC` look-alike ranked 900th is not Upbit's
/// BTC), its favorite state, and the text decided once.
public struct RankingRow: Sendable, Hashable {
    public var coin: RankedCoin
    public var currency: RankingCurrency
    public var listing: KoreanListing?
    public var favorite: Bool
    /// The kimchi premium of its live board row (listed coins only; nil when unknown).
    public var premium: Double?
    public var display: Display

    public struct Display: Sendable, Hashable, Codable {
        public var price: String
        public var changeRate1h: String
        public var changeRate24h: String
        public var changeRate7d: String
        public var marketCap: String
        public var volume24h: String
        /// `+1.23%` on its Korean board, `-` when unknown or unlisted.
        public var premium: String = "-"
        /// `rise` / `fall` / `even` per change, for the faces' colours.
        public var tone1h: String
        public var tone24h: String
        public var tone7d: String
        /// The name to show in the asked language (`shownName`).
        public var name: String = ""
    }

    /// The name to show: Korean when a Korean exchange lists the coin (and the language is
    /// Korean), else CoinGecko's.
    public func shownName(_ language: Language) -> String {
        language == .ko ? listing?.koreanName ?? coin.name : coin.name
    }
}

/// One page of the ranking after search and sort.
public struct RankingPage: Sendable {
    public var rows: [RankingRow]
    public var page: Int
    public var perPage: Int
    public var currency: RankingCurrency
    public var sort: RankingSort
    /// The sort each header leads to when tapped.
    public var next: [RankingSortKey: RankingSort]
}

/// Builds a ranking page: the rank window of `page`/`perPage` from the loaded coins, then the
/// search (names, symbol, Korean name, 초성) and the sort within it.
public enum RankingBoard {
    public static let maxPerPage = 250
    /// Deeper than this CoinGecko's ranking is noise for a Korean tracker (and costs calls).
    public static let maxRank = 1_000

    /// The CoinGecko pages of `blockSize` rows that hold ranks up to `page × perPage`.
    public static func blocksNeeded(page: Int, perPage: Int, blockSize: Int = maxPerPage) -> Int {
        (page * perPage + blockSize - 1) / blockSize
    }

    public static func page(
        _ coins: [RankedCoin],
        page: Int,
        perPage: Int,
        currency: RankingCurrency,
        sort: RankingSort = RankingSort(),
        search: MarketSearch = MarketSearch(""),
        listings: [String: KoreanListing] = [:],
        favorites: Set<String> = [],
        premiums: [String: Double] = [:],
        language: Language = .ko
    ) -> RankingPage {
        let ordered = coins.sorted { ($0.rank ?? .max, $0.id) < ($1.rank ?? .max, $1.id) }
        // A symbol's listing goes to its best-ranked coin only.
        var claimed: Set<String> = []
        var listed: [String: KoreanListing] = [:]
        for coin in ordered where !claimed.contains(coin.symbol) {
            claimed.insert(coin.symbol)
            if let listing = listings[coin.symbol] { listed[coin.id] = listing }
        }
        let start = max(0, (page - 1) * perPage)
        let window = start < ordered.count ? Array(ordered[start..<min(ordered.count, start + perPage)]) : []
        let formatter = MarketFormatter(language: language)
        var rows = window.map { coin in
            let listing = listed[coin.id]
            let premium = listing.flatMap { premiums[$0.market.base] }
            var shown = display(coin, currency, formatter)
            shown.premium = premium.map(formatter.rate) ?? "-"
            var row = RankingRow(
                coin: coin,
                currency: currency,
                listing: listing,
                favorite: favorites.contains(coin.id),
                premium: premium,
                display: shown
            )
            row.display.name = row.shownName(language)
            return row
        }
        if !search.isEmpty {
            rows = rows.filter { search.matches(any: [$0.coin.name, $0.coin.symbol, $0.coin.id, $0.listing?.koreanName ?? ""]) }
        }
        if sort.direction != .none {
            rows.sort { a, b in
                let x = value(a.coin, sort.key)
                let y = value(b.coin, sort.key)
                // Unknown figures go last either way.
                switch (x, y) {
                case (nil, nil): return (a.coin.rank ?? .max) < (b.coin.rank ?? .max)
                case (nil, _): return false
                case (_, nil): return true
                case let (x?, y?):
                    if x == y { return (a.coin.rank ?? .max) < (b.coin.rank ?? .max) }
                    return sort.direction == .descending ? x > y : x < y
                }
            }
        }
        let next = Dictionary(uniqueKeysWithValues: RankingSortKey.allCases.map { ($0, sort.tapping($0)) })
        return RankingPage(rows: rows, page: page, perPage: perPage, currency: currency, sort: sort, next: next)
    }

    /// The figure a column sorts by; for rank, "more" is better (rank 1 highest).
    static func value(_ coin: RankedCoin, _ key: RankingSortKey) -> Double? {
        switch key {
        case .rank: coin.rank.map { -Double($0) }
        case .price: coin.price
        case .change1h: coin.change1h
        case .change24h: coin.change24h
        case .change7d: coin.change7d
        case .marketCap: coin.marketCap
        case .volume: coin.volume24h
        }
    }

    static func display(_ coin: RankedCoin, _ currency: RankingCurrency, _ f: MarketFormatter) -> RankingRow.Display {
        func rate(_ period: RankedCoin.Period) -> String { coin.changeRate(period).map(f.rate) ?? "-" }
        func tone(_ period: RankedCoin.Period) -> String {
            coin.changeRate(period).map { PriceChange(signed: $0).tone.rawValue } ?? Tone.even.rawValue
        }
        return RankingRow.Display(
            price: coin.price.map { f.price($0, currency: currency) } ?? "-",
            changeRate1h: rate(.hour),
            changeRate24h: rate(.day),
            changeRate7d: rate(.week),
            marketCap: coin.marketCap.map { f.compactMoney($0, currency: currency) } ?? "-",
            volume24h: coin.volume24h.map { f.compactMoney($0, currency: currency) } ?? "-",
            tone1h: tone(.hour),
            tone24h: tone(.day),
            tone7d: tone(.week)
        )
    }
}
