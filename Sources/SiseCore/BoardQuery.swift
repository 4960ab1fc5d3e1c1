import Foundation

/// One view of a board: a quote market, a sort, a search and optionally favorites only.
/// The web page, the TUI and the CLI all turn rows into what they show through this.
public struct BoardQuery: Hashable, Sendable {
    public var quote: QuoteCurrency
    public var sort: SortState
    public var search: String
    /// When set, only these markets are shown.
    public var favorites: Set<MarketID>?
    public var language: Language

    public init(
        quote: QuoteCurrency = .krw,
        sort: SortState = .default,
        search: String = "",
        favorites: Set<MarketID>? = nil,
        language: Language = .ko
    ) {
        self.quote = quote
        self.sort = sort
        self.search = search
        self.favorites = favorites
        self.language = language
    }

    /// The rows this view shows, in order (`premium` for sorting by the kimchi premium).
    public func apply<S: Sequence>(_ rows: S, premium: PremiumInputs = .none) -> [MarketRow] where S.Element == MarketRow {
        let search = MarketSearch(self.search)
        let kept = rows.filter { includes($0, search) }
        return MarketSorter.sorted(kept, by: sort, language: language, premium: premium)
    }

    /// Whether the view shows `row` (`search` is this query's, made once by the caller).
    func includes(_ row: MarketRow, _ search: MarketSearch) -> Bool {
        row.id.quote == quote.rawValue
            && (favorites?.contains(row.id) ?? true)
            && search.matches(row.market)
    }
}
