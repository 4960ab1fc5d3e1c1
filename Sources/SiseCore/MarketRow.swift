import Foundation

/// What a board shows for one market: the listing, its latest ticker and its tick size.
public struct MarketRow: Hashable, Sendable {
    public var market: Market
    public var ticker: Ticker
    /// The exchange's order tick (e.g. 1000 for KRW-BTC), when known; it decides the decimals.
    public var tickSize: Decimal?
    /// Where the market trades.
    public var exchange: Exchange

    public init(market: Market, ticker: Ticker, tickSize: Decimal? = nil, exchange: Exchange) {
        self.market = market
        self.ticker = ticker
        self.tickSize = tickSize
        self.exchange = exchange
    }

    public var id: MarketID { market.id }
}
