import Foundation
import SiseCore

/// CoinGecko's public API, as Sise sees it.
public protocol CoinGeckoAPI: Sendable {
    /// `/search/trending`: 15 coins and 7 NFTs. KRW prices need a USD→KRW rate (`krwPerUSD`).
    func trending(krwPerUSD: Double?) async throws -> Trending
    /// `/search?query=`.
    func search(_ query: String) async throws -> SearchResults
    /// `/exchange_rates` → KRW per USD.
    func krwPerUSD() async throws -> Double
    /// `/coins/markets?vs_currency=krw&ids=…&sparkline=true&price_change_percentage=24h`.
    func markets(ids: [String]) async throws -> [CoinMarket]
    /// `/coins/{id}/market_chart?vs_currency=krw&days=` → (epoch ms, KRW price) points.
    func chart(id: String, days: Int) async throws -> [PricePoint]
    /// `/coins/{id}` (market data only) in KRW.
    func coin(id: String) async throws -> CoinMarket
    /// `/simple/price?ids=&vs_currencies=krw,usd&include_24hr_change=true&include_last_updated_at=true`.
    func simplePrice(ids: [String]) async throws -> [SimplePrice]
    /// One page of the market-cap ranking (`/coins/markets`, `order=market_cap_desc`, with the
    /// 7-day sparkline and 1 h / 24 h / 7 d changes).
    func ranking(currency: RankingCurrency, page: Int, perPage: Int) async throws -> [RankedCoin]
    /// The whole market (`/global`).
    func global() async throws -> GlobalMarket
}

/// Which CoinGecko plan a key belongs to: it decides the header the key travels in.
public enum CoinGeckoPlan: String, Sendable, CaseIterable {
    case demo
    case pro

    var header: String { self == .pro ? "x-cg-pro-api-key" : "x-cg-demo-api-key" }
}
