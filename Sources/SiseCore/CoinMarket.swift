import Foundation

/// One coin's market figures in KRW (CoinGecko `/coins/markets`).
public struct CoinMarket: Hashable, Sendable, Codable {
    public var id: String
    public var symbol: String
    public var name: String
    public var image: String?
    public var price: Double?
    public var marketCap: Double?
    public var marketCapRank: Int?
    public var volume24h: Double?
    public var high24h: Double?
    public var low24h: Double?
    /// Percent.
    public var change24h: Double?
    public var allTimeHigh: Double?
    public var allTimeHighDate: String?
    public var allTimeLow: Double?
    public var allTimeLowDate: String?
    public var lastUpdated: String?
    /// Hourly prices of the last 7 days (168 points), oldest first.
    public var sparkline: [Double]

    public init(
        id: String,
        symbol: String,
        name: String,
        image: String? = nil,
        price: Double? = nil,
        marketCap: Double? = nil,
        marketCapRank: Int? = nil,
        volume24h: Double? = nil,
        high24h: Double? = nil,
        low24h: Double? = nil,
        change24h: Double? = nil,
        allTimeHigh: Double? = nil,
        allTimeHighDate: String? = nil,
        allTimeLow: Double? = nil,
        allTimeLowDate: String? = nil,
        lastUpdated: String? = nil,
        sparkline: [Double] = []
    ) {
        self.id = id
        self.symbol = symbol
        self.name = name
        self.image = image
        self.price = price
        self.marketCap = marketCap
        self.marketCapRank = marketCapRank
        self.volume24h = volume24h
        self.high24h = high24h
        self.low24h = low24h
        self.change24h = change24h
        self.allTimeHigh = allTimeHigh
        self.allTimeHighDate = allTimeHighDate
        self.allTimeLow = allTimeLow
        self.allTimeLowDate = allTimeLowDate
        self.lastUpdated = lastUpdated
        self.sparkline = sparkline
    }
}

/// A point of a price chart: epoch milliseconds and a price.
public struct PricePoint: Hashable, Sendable, Codable {
    public var time: Int64
    public var price: Double

    public init(time: Int64, price: Double) {
        self.time = time
        self.price = price
    }
}
