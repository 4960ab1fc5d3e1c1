import Foundation

/// The currency a ranking is priced in (CoinGecko's `vs_currency`).
public enum RankingCurrency: String, CaseIterable, Sendable, Codable {
    case krw, usd
}

/// One coin of CoinGecko's market-cap ranking (`/coins/markets`), as CoinGecko gives it:
/// changes in percent (the faces show signed fractions, see `changeRate(_:)`).
public struct RankedCoin: Hashable, Sendable, Codable {
    public var id: String
    /// Upper case (`BTC`).
    public var symbol: String
    public var name: String
    public var image: String?
    public var rank: Int?
    public var price: Double?
    public var change1h: Double?
    public var change24h: Double?
    public var change7d: Double?
    public var marketCap: Double?
    public var volume24h: Double?
    /// Hourly prices of the last 7 days, oldest first.
    public var sparkline: [Double]

    public init(
        id: String,
        symbol: String,
        name: String,
        image: String? = nil,
        rank: Int? = nil,
        price: Double? = nil,
        change1h: Double? = nil,
        change24h: Double? = nil,
        change7d: Double? = nil,
        marketCap: Double? = nil,
        volume24h: Double? = nil,
        sparkline: [Double] = []
    ) {
        self.id = id
        self.symbol = symbol
        self.name = name
        self.image = image
        self.rank = rank
        self.price = price
        self.change1h = change1h
        self.change24h = change24h
        self.change7d = change7d
        self.marketCap = marketCap
        self.volume24h = volume24h
        self.sparkline = sparkline
    }

    /// The periods CoinGecko reports a change over.
    public enum Period: String, CaseIterable, Sendable {
        case hour = "1h"
        case day = "24h"
        case week = "7d"
    }

    /// The change over `period` as a signed fraction, like the board's `changeRate`.
    public func changeRate(_ period: Period) -> Double? {
        let percent: Double? =
            switch period {
            case .hour: change1h
            case .day: change24h
            case .week: change7d
            }
        return percent.flatMap { $0.isFinite ? $0 / 100 : nil }
    }
}

/// The whole market at a glance (CoinGecko `/global`): what cointop's market bar shows.
public struct GlobalMarket: Hashable, Sendable, Codable {
    /// By currency code (`krw`, `usd`, `btc`, …).
    public var totalMarketCap: [String: Double]
    public var totalVolume: [String: Double]
    /// Percent of the total market cap, by symbol in lower case (`btc`, `eth`, …).
    public var dominance: [String: Double]
    /// Percent, over 24 h, in USD.
    public var marketCapChange24h: Double?
    public var activeCryptocurrencies: Int?
    public var markets: Int?
    /// Epoch seconds.
    public var updatedAt: Int64?

    public init(
        totalMarketCap: [String: Double],
        totalVolume: [String: Double],
        dominance: [String: Double],
        marketCapChange24h: Double? = nil,
        activeCryptocurrencies: Int? = nil,
        markets: Int? = nil,
        updatedAt: Int64? = nil
    ) {
        self.totalMarketCap = totalMarketCap
        self.totalVolume = totalVolume
        self.dominance = dominance
        self.marketCapChange24h = marketCapChange24h
        self.activeCryptocurrencies = activeCryptocurrencies
        self.markets = markets
        self.updatedAt = updatedAt
    }
}

/// Where a coin trades in Korea: the exchange and market of its live board row, and the name
/// Koreans know it by.
public struct KoreanListing: Hashable, Sendable {
    public var exchange: Exchange
    public var market: MarketID
    public var koreanName: String

    public init(exchange: Exchange, market: MarketID, koreanName: String) {
        self.exchange = exchange
        self.market = market
        self.koreanName = koreanName
    }
}

extension KoreanListing {
    /// Symbol → listing from each exchange's markets, the first exchange given winning
    /// (`exchangeOrder` is the order Korean traders look); KRW markets only.
    public static func index(_ markets: [(Exchange, [Market])]) -> [String: KoreanListing] {
        var index: [String: KoreanListing] = [:]
        for (exchange, list) in markets {
            for market in list where market.id.quote == "KRW" && index[market.symbol] == nil {
                index[market.symbol] = KoreanListing(exchange: exchange, market: market.id, koreanName: market.koreanName)
            }
        }
        return index
    }

    /// The order in which exchanges name a coin for the ranking.
    public static let exchangeOrder: [Exchange] = Exchange.byShare
}
