import Foundation
import SiseCore
import SiseFeeds

/// Builds a board once over REST: the listings, every ticker of a quote market and the tick
/// sizes, joined into rows. Tick sizes are best effort — without them the magnitude rule decides
/// the decimals, which is better than no board.
public struct BoardLoader: Sendable {
    private let api: any ExchangeAPI
    private let exchange: Exchange

    public init(api: any ExchangeAPI, exchange: Exchange) {
        self.api = api
        self.exchange = exchange
    }

    public func load(quote: QuoteCurrency) async throws -> [MarketRow] {
        async let listing = api.markets()
        async let prices = api.tickers(quotes: [quote])
        let (markets, tickers) = try await (listing, prices)
        let ticks = (try? await api.tickSizes(markets: tickers.map(\.market))) ?? [:]
        return Self.join(markets: markets, tickers: tickers, ticks: ticks, exchange: exchange)
    }

    /// Rows for the given pairs, in the order asked.
    public func load(markets ids: [MarketID], listing: [Market]) async throws -> [MarketRow] {
        let tickers = try await api.tickers(markets: ids)
        let ticks = (try? await api.tickSizes(markets: ids)) ?? [:]
        let rows = Self.join(markets: listing, tickers: tickers, ticks: ticks, exchange: exchange)
        let byID = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// Rows for tickers whose market is listed; a ticker without a listing is dropped.
    public static func join(markets: [Market], tickers: [Ticker], ticks: [MarketID: Decimal], exchange: Exchange) -> [MarketRow] {
        let listing = Dictionary(markets.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return tickers.compactMap { ticker in
            listing[ticker.market].map { MarketRow(market: $0, ticker: ticker, tickSize: ticks[ticker.market], exchange: exchange) }
        }
    }
}
