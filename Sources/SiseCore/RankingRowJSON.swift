import Foundation

/// The public JSON shape of a ranking row — `sise rank --json` and `GET /api/ranking` print at
/// least these keys: change rates are signed fractions like the board's `changeRate`
/// (CoinGecko gives percent), unknown figures `null`.
public struct RankingRowJSON: Encodable, Sendable {
    public let row: RankingRow

    public init(_ row: RankingRow) {
        self.row = row
    }

    enum Keys: String, CodingKey {
        case rank, id, symbol, name, koreanName, price, changeRate1h, changeRate24h, changeRate7d, marketCap, volume24h, currency
        case image, listing, premium, favorite, display
    }

    struct Listing: Encodable {
        let exchange: Exchange
        let market: String
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        let coin = row.coin
        try c.encode(coin.rank, forKey: .rank)
        try c.encode(coin.id, forKey: .id)
        try c.encode(coin.symbol, forKey: .symbol)
        try c.encode(coin.name, forKey: .name)
        try c.encode(row.listing?.koreanName, forKey: .koreanName)
        try c.encode(coin.price, forKey: .price)
        try c.encode(coin.changeRate(.hour), forKey: .changeRate1h)
        try c.encode(coin.changeRate(.day), forKey: .changeRate24h)
        try c.encode(coin.changeRate(.week), forKey: .changeRate7d)
        try c.encode(coin.marketCap, forKey: .marketCap)
        try c.encode(coin.volume24h, forKey: .volume24h)
        try c.encode(row.currency, forKey: .currency)
        try c.encode(coin.image, forKey: .image)
        try c.encode(row.listing.map { Listing(exchange: $0.exchange, market: $0.market.code) }, forKey: .listing)
        try c.encode(row.premium, forKey: .premium)
        try c.encode(row.favorite, forKey: .favorite)
        try c.encode(row.display, forKey: .display)
    }
}

/// The public JSON shape of the global market bar — `sise global --json` and `GET /api/global`.
public struct GlobalMarketJSON: Encodable, Sendable {
    public let market: GlobalMarket
    public let currency: RankingCurrency
    public let language: Language

    public init(_ market: GlobalMarket, currency: RankingCurrency, language: Language) {
        self.market = market
        self.currency = currency
        self.language = language
    }

    enum Keys: String, CodingKey {
        case currency, totalMarketCap, totalVolume24h, btcDominance, ethDominance, marketCapChange24h, activeCryptocurrencies, updatedAt, display
    }

    /// Dominance as a fraction (CoinGecko gives percent).
    public var btcDominance: Double? { market.dominance["btc"].map { $0 / 100 } }
    public var ethDominance: Double? { market.dominance["eth"].map { $0 / 100 } }
    public var marketCapChange24h: Double? { market.marketCapChange24h.map { $0 / 100 } }

    /// The texts every face shows.
    public var display: [String: String] {
        let f = MarketFormatter(language: language)
        return [
            "totalMarketCap": market.totalMarketCap[currency.rawValue].map { f.compactMoney($0, currency: currency) } ?? "-",
            "totalVolume24h": market.totalVolume[currency.rawValue].map { f.compactMoney($0, currency: currency) } ?? "-",
            "btcDominance": btcDominance.map(f.percent) ?? "-",
            "ethDominance": ethDominance.map(f.percent) ?? "-",
            "marketCapChange24h": marketCapChange24h.map(f.rate) ?? "-",
            "tone": marketCapChange24h.map { PriceChange(signed: $0).tone.rawValue } ?? Tone.even.rawValue,
        ]
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(currency, forKey: .currency)
        try c.encode(market.totalMarketCap[currency.rawValue], forKey: .totalMarketCap)
        try c.encode(market.totalVolume[currency.rawValue], forKey: .totalVolume24h)
        try c.encode(btcDominance, forKey: .btcDominance)
        try c.encode(ethDominance, forKey: .ethDominance)
        try c.encode(marketCapChange24h, forKey: .marketCapChange24h)
        try c.encode(market.activeCryptocurrencies, forKey: .activeCryptocurrencies)
        try c.encode(market.updatedAt, forKey: .updatedAt)
        try c.encode(display, forKey: .display)
    }
}
