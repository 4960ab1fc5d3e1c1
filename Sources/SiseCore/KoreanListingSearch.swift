import Foundation

extension KoreanListing {
    /// The listings whose Korean name or symbol holds `query` (초성 too: `ㅂㅌ` finds 비트코인),
    /// best first: a name that starts with it, then the shorter name, then the name's order;
    /// at most `limit`.
    public static func search(
        _ query: String,
        in index: [String: KoreanListing],
        limit: Int = 25
    )
        -> [(symbol: String, listing: KoreanListing)]
    {
        let search = MarketSearch(query)
        guard !search.isEmpty, limit > 0 else { return [] }
        let hits = index.filter { search.matches(any: [$0.value.koreanName, $0.key]) }
        return hits.map { (symbol: $0.key, listing: $0.value) }
            .sorted { a, b in
                let aStarts = search.isPrefix(of: a.listing.koreanName)
                let bStarts = search.isPrefix(of: b.listing.koreanName)
                if aStarts != bStarts { return aStarts }
                if a.listing.koreanName.count != b.listing.koreanName.count { return a.listing.koreanName.count < b.listing.koreanName.count }
                return (a.listing.koreanName, a.symbol) < (b.listing.koreanName, b.symbol)
            }
            .prefix(limit).map { $0 }
    }
}
