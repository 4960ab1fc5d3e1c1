import Foundation

/// One market's current price and day statistics. Rates are fractions (0.0105 = +1.05 %).
public struct Ticker: Hashable, Sendable {
    public var market: MarketID
    public var price: Double
    public var change: PriceChange
    public var signedChangePrice: Double
    public var signedChangeRate: Double
    public var openingPrice: Double
    public var highPrice: Double
    public var lowPrice: Double
    public var prevClosingPrice: Double
    /// Traded value over the rolling 24 h, in the quote currency (거래대금).
    public var tradeValue24h: Double
    /// Traded quantity over the rolling 24 h, in the base asset.
    public var tradeVolume24h: Double
    public var highest52WeekPrice: Double?
    public var highest52WeekDate: String?
    public var lowest52WeekPrice: Double?
    public var lowest52WeekDate: String?
    /// Time of the last trade, epoch milliseconds.
    public var tradeTimestamp: Int64
    /// Time the exchange produced this snapshot, epoch milliseconds.
    public var timestamp: Int64

    public init(
        market: MarketID,
        price: Double,
        change: PriceChange,
        signedChangePrice: Double,
        signedChangeRate: Double,
        openingPrice: Double = 0,
        highPrice: Double = 0,
        lowPrice: Double = 0,
        prevClosingPrice: Double = 0,
        tradeValue24h: Double = 0,
        tradeVolume24h: Double = 0,
        highest52WeekPrice: Double? = nil,
        highest52WeekDate: String? = nil,
        lowest52WeekPrice: Double? = nil,
        lowest52WeekDate: String? = nil,
        tradeTimestamp: Int64 = 0,
        timestamp: Int64 = 0
    ) {
        self.market = market
        self.price = price
        self.change = change
        self.signedChangePrice = signedChangePrice
        self.signedChangeRate = signedChangeRate
        self.openingPrice = openingPrice
        self.highPrice = highPrice
        self.lowPrice = lowPrice
        self.prevClosingPrice = prevClosingPrice
        self.tradeValue24h = tradeValue24h
        self.tradeVolume24h = tradeVolume24h
        self.highest52WeekPrice = highest52WeekPrice
        self.highest52WeekDate = highest52WeekDate
        self.lowest52WeekPrice = lowest52WeekPrice
        self.lowest52WeekDate = lowest52WeekDate
        self.tradeTimestamp = tradeTimestamp
        self.timestamp = timestamp
    }
}
