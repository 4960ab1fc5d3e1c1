import Foundation

/// A coin in CoinGecko's trending list, in the shape every face shows.
public struct TrendingCoin: Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var symbol: String
    /// 1-based position in the trending list.
    public var rank: Int
    public var marketCapRank: Int?
    public var thumb: String
    public var priceUSD: Double?
    /// nil when no USD→KRW rate is known.
    public var priceKRW: Double?
    /// Percent (not a fraction), as CoinGecko reports it.
    public var change24h: Double?

    public init(
        id: String,
        name: String,
        symbol: String,
        rank: Int,
        marketCapRank: Int?,
        thumb: String,
        priceUSD: Double?,
        priceKRW: Double?,
        change24h: Double?
    ) {
        self.id = id
        self.name = name
        self.symbol = symbol
        self.rank = rank
        self.marketCapRank = marketCapRank
        self.thumb = thumb
        self.priceUSD = priceUSD
        self.priceKRW = priceKRW
        self.change24h = change24h
    }

    enum CodingKeys: String, CodingKey { case id, name, symbol, rank, marketCapRank, thumb, priceUSD, priceKRW, change24h }

    /// Every key is always present; unknown values are `null` (scripts can rely on the shape).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(symbol, forKey: .symbol)
        try c.encode(rank, forKey: .rank)
        try c.encode(marketCapRank, forKey: .marketCapRank)
        try c.encode(thumb, forKey: .thumb)
        try c.encode(priceUSD, forKey: .priceUSD)
        try c.encode(priceKRW, forKey: .priceKRW)
        try c.encode(change24h, forKey: .change24h)
    }
}

/// A trending NFT collection.
public struct TrendingNFT: Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var symbol: String
    public var thumb: String
    public var floorPrice: Double?
    public var floorPriceCurrency: String?
    /// Percent.
    public var floorPriceChange24h: Double?

    public init(
        id: String,
        name: String,
        symbol: String,
        thumb: String,
        floorPrice: Double?,
        floorPriceCurrency: String?,
        floorPriceChange24h: Double?
    ) {
        self.id = id
        self.name = name
        self.symbol = symbol
        self.thumb = thumb
        self.floorPrice = floorPrice
        self.floorPriceCurrency = floorPriceCurrency
        self.floorPriceChange24h = floorPriceChange24h
    }

    enum CodingKeys: String, CodingKey { case id, name, symbol, thumb, floorPrice, floorPriceCurrency, floorPriceChange24h }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(symbol, forKey: .symbol)
        try c.encode(thumb, forKey: .thumb)
        try c.encode(floorPrice, forKey: .floorPrice)
        try c.encode(floorPriceCurrency, forKey: .floorPriceCurrency)
        try c.encode(floorPriceChange24h, forKey: .floorPriceChange24h)
    }
}

/// `sise trending --json`: `{"coins":[…],"nfts":[…]}`.
public struct Trending: Hashable, Sendable, Codable {
    public var coins: [TrendingCoin]
    public var nfts: [TrendingNFT]

    public init(coins: [TrendingCoin], nfts: [TrendingNFT]) {
        self.coins = coins
        self.nfts = nfts
    }
}

/// One hit of a global search; `symbol` and `marketCapRank` exist for coins (and symbols for NFTs).
public struct SearchHit: Hashable, Sendable, Codable {
    public var id: String
    public var name: String
    public var symbol: String?
    public var marketCapRank: Int?
    public var thumb: String

    public init(id: String, name: String, symbol: String?, marketCapRank: Int?, thumb: String) {
        self.id = id
        self.name = name
        self.symbol = symbol
        self.marketCapRank = marketCapRank
        self.thumb = thumb
    }
}

/// `sise search --json`: `{"coins":[…],"nfts":[…],"exchanges":[…]}`.
public struct SearchResults: Hashable, Sendable, Codable {
    public var coins: [SearchHit]
    public var nfts: [SearchHit]
    public var exchanges: [SearchHit]

    public init(coins: [SearchHit], nfts: [SearchHit], exchanges: [SearchHit]) {
        self.coins = coins
        self.nfts = nfts
        self.exchanges = exchanges
    }
}
