import Foundation

/// The simulated CoinGecko: coins derived from the simulated exchange's listings (so KRW prices
/// agree with the board), invented NFT collections, and a per-minute rate limit.
struct SimCoinGecko: Sendable {
    struct Coin: Sendable {
        let id: String
        let symbol: String
        let name: String
        let rank: Int
        let market: SimMarket
    }

    let coins: [Coin]
    let byID: [String: Int]
    let nfts: [(id: String, name: String, symbol: String, floor: Double, currency: String)]
    static let exchanges = [
        ("upbit", "Upbit"), ("bithumb", "Bithumb"), ("korbit", "Korbit"), ("binance", "Binance"),
        ("coinbase-exchange", "Coinbase Exchange"), ("okx", "OKX"), ("bybit_spot", "Bybit"),
    ]
    /// KRW per USD in the simulation (Upbit's USDT price neighbourhood).
    static let krwPerUSD = 1_463.0

    private static let knownIDs = [
        "BTC": "bitcoin", "ETH": "ethereum", "XRP": "ripple", "SOL": "solana", "DOGE": "dogecoin",
        "ADA": "cardano", "TRX": "tron", "USDT": "tether", "USDC": "usd-coin", "SHIB": "shiba-inu",
        "AVAX": "avalanche-2", "LINK": "chainlink", "DOT": "polkadot", "BCH": "bitcoin-cash",
    ]

    init(universe: SimUniverse, seed: UInt64) {
        var list: [Coin] = []
        for (rank, market) in universe.markets(quote: "KRW").enumerated() {
            let id =
                Self.knownIDs[market.base]
                ?? market.english.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
            guard !list.contains(where: { $0.id == id }) else { continue }
            list.append(Coin(id: id, symbol: market.base, name: market.english, rank: rank + 1, market: market))
        }
        coins = list
        var index: [String: Int] = [:]
        for (i, coin) in list.enumerated() { index[coin.id] = i }
        byID = index
        var random = SimRandom(seed: seed ^ 0xC0FFEE)
        let stems = ["Pudgy", "Bored", "Mutant", "Azuki", "Doodle", "Clone", "Moon", "Hangul", "Seoul", "Tiger", "Magpie", "Hanok"]
        let kinds = ["Penguins", "Apes", "Cats", "Punks", "Birds", "Runes", "Frogs", "Spirits"]
        nfts = (0..<12).map { i in
            let name = "\(stems[i % stems.count]) \(kinds[Int(random.next() % UInt64(kinds.count))])"
            let id = name.lowercased().replacingOccurrences(of: " ", with: "-")
            return (
                id, name, String(name.filter(\.isUppercase)) + "NFT", Double(random.next() % 2_000) / 100 + 0.05,
                random.next() % 3 == 0 ? "btc" : "eth"
            )
        }
    }

    func coin(_ id: String) -> Coin? { byID[id].map { coins[$0] } }

    func usd(_ coin: Coin, at t: Double) -> Double { coin.market.price(at: t) / Self.krwPerUSD }

    /// The 15 trending coins: a deterministic pick that changes every 10 minutes.
    func trending(at t: Double) -> [Coin] {
        let bucket = UInt64(t / 600)
        return coins.sorted { SimRandom.hash(bucket, SimRandom.hash($0.id)) < SimRandom.hash(bucket, SimRandom.hash($1.id)) }
            .prefix(15).map { $0 }
    }

    /// Percent change over the last 24 h along the walk.
    func change24h(_ coin: Coin, at t: Double) -> Double {
        change(coin, hours: 24, at: t)
    }

    /// Percent change over the last `hours` along the walk.
    func change(_ coin: Coin, hours: Double, at t: Double) -> Double {
        let now = coin.market.price(at: t)
        let then = coin.market.price(at: t - hours * 3_600)
        return then == 0 ? 0 : (now - then) / then * 100
    }

    /// Market cap in KRW: a fixed supply (a cap that falls off with the listing's order, at the
    /// base price) times the price now — so caps move with prices and ranks can swap.
    func marketCap(_ coin: Coin, at t: Double) -> Double {
        let supply = 2e15 / pow(Double(coin.rank), 1.25) / coin.market.basePrice
        return (supply * coin.market.price(at: t)).rounded()
    }

    /// Every coin by market cap, largest first, with its rank.
    func ranked(at t: Double) -> [(coin: Coin, rank: Int)] {
        coins.map { ($0, marketCap($0, at: t)) }.sorted { $0.1 > $1.1 }.enumerated().map { ($0.element.0, $0.offset + 1) }
    }
}
