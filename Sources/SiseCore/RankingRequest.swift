import Foundation

/// A ranking view as the API (`?page=&perPage=&currency=&sort=&order=&q=`) and the CLI
/// (`--page`, `--per-page`, `--currency`, …) ask for it, checked once: pages of 1–250 rows,
/// no deeper than rank 1,000, KRW or USD.
public struct RankingRequest: Sendable, Hashable {
    public var page = 1
    public var perPage = 100
    public var currency = RankingCurrency.krw
    public var sort = RankingSort()
    public var search = ""

    public init() {}

    public init(
        page: String?,
        perPage: String?,
        currency: String?,
        sort: String? = nil,
        order: String? = nil,
        q: String? = nil
    ) throws(ParameterRefusal) {
        if let page, !page.isEmpty {
            // Bounded before any arithmetic: no page number from outside can overflow.
            guard let value = Int(page), (1...RankingBoard.maxRank).contains(value) else {
                throw ParameterRefusal(.page, .between(1, RankingBoard.maxRank))
            }
            self.page = value
        }
        if let perPage, !perPage.isEmpty {
            guard let value = Int(perPage), (1...RankingBoard.maxPerPage).contains(value) else {
                throw ParameterRefusal(.perPage, .between(1, RankingBoard.maxPerPage))
            }
            self.perPage = value
        }
        guard (self.page - 1) * self.perPage < RankingBoard.maxRank else {
            throw ParameterRefusal(.page, .withinRank(RankingBoard.maxRank))
        }
        if let currency, !currency.isEmpty {
            guard let value = RankingCurrency(rawValue: currency.lowercased()) else {
                throw ParameterRefusal(.currency, .oneOf(RankingCurrency.allCases.map(\.rawValue)))
            }
            self.currency = value
        }
        var key: RankingSortKey?
        if let sort, !sort.isEmpty {
            guard let value = RankingSortKey.allCases.first(where: { $0.rawValue.lowercased() == sort.lowercased() }) else {
                throw ParameterRefusal(.sort, .oneOf(RankingSortKey.allCases.map(\.rawValue)))
            }
            key = value
        }
        var direction: SortDirection?
        if let order, !order.isEmpty {
            guard let value = SortDirection(spelling: order) else { throw ParameterRefusal(.order, .oneOf(SortDirection.choices)) }
            direction = value
        }
        self.sort = RankingSort.requested(key: key, direction: direction)
        if let q {
            guard q.count <= 100 else { throw ParameterRefusal(.search, .atMostCharacters(100)) }
            search = q
        }
    }

    /// CoinGecko pages of 250 that hold this view's ranks (the last may be short).
    public var blocks: Int {
        RankingBoard.blocksNeeded(page: page, perPage: perPage)
    }

    /// The page of `coins` this request shows.
    /// - Parameter premiums: the kimchi premium of each listed symbol's board row.
    public func page(
        _ coins: [RankedCoin],
        listings: [String: KoreanListing],
        favorites: Set<String> = [],
        premiums: [String: Double] = [:],
        language: Language
    ) -> RankingPage {
        RankingBoard.page(
            coins,
            page: page,
            perPage: perPage,
            currency: currency,
            sort: sort,
            search: MarketSearch(search),
            listings: listings,
            favorites: favorites,
            premiums: premiums,
            language: language
        )
    }
}
