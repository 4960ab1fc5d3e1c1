import SiseCore
import SiseStore

extension SearchResults {
    /// A Korean query (비트, ㅂㅌ) answered from the Korean exchanges' own names, as every search
    /// box does: CoinGecko knows no Korean names. Each hit is the coin's market on the exchange
    /// Koreans look at first — its id a favorite key (`KRW-BTC`, `bithumb:KRW-BTT`).
    public static func korean(_ query: String, in index: [String: KoreanListing]) -> SearchResults {
        let hits = KoreanListing.search(query, in: index).map { hit in
            SearchHit(
                id: FavoriteItem.market(hit.listing.market.code, hit.listing.exchange).key,
                name: hit.listing.koreanName,
                symbol: hit.symbol,
                marketCapRank: nil,
                thumb: ""
            )
        }
        return SearchResults(coins: hits, nfts: [], exchanges: [])
    }
}
