import Foundation
import SiseCore

/// The simulated exchange's listings: about 250 KRW markets (real names first, invented ones
/// after), plus BTC and USDT quote markets — the same list for the same seed.
struct SimUniverse: Sendable {
    let markets: [SimMarket]
    let byCode: [String: Int]

    static let cautionReasons = [
        "PRICE_FLUCTUATIONS", "TRADING_VOLUME_SOARING", "DEPOSIT_AMOUNT_SOARING",
        "GLOBAL_PRICE_DIFFERENCES", "CONCENTRATION_OF_SMALL_ACCOUNTS",
    ]

    init(seed: UInt64, krwCount: Int = 250, hostileNames: Bool = false, venue: Exchange) {
        var random = SimRandom(seed: seed)
        let real = SimCoinCatalog.coins
        let invented = SimNameGenerator.generate(
            count: max(0, krwCount - real.count),
            taken: Set(real.map(\.symbol)),
            random: &random
        )
        struct Listing {
            var symbol, korean, english: String
            var price: Double
            var warning: Bool
        }
        var listings = real.map { Listing(symbol: $0.symbol, korean: $0.korean, english: $0.english, price: $0.price, warning: $0.warning) }
        for name in invented {
            // Log-uniform from 0.0005 to 500,000 KRW, so every tick band is populated.
            let exponent = Double.random(in: -3.3...5.7, using: &random)
            listings.append(
                Listing(
                    symbol: name.symbol,
                    korean: name.korean,
                    english: name.english,
                    price: pow(10, exponent),
                    warning: Double.random(in: 0..<1, using: &random) < 0.04
                )
            )
        }
        if hostileNames {
            listings.append(
                Listing(
                    symbol: "XSS",
                    korean: "<img src=x onerror=alert(1)>",
                    english: "<script>alert('sise')</script>",
                    price: 1_234,
                    warning: false
                )
            )
        }

        let walkFor: (String) -> PriceWalk = { symbol in
            let h = SimRandom.hash(seed, SimRandom.hash(symbol))
            let stable = symbol == "USDT" || symbol == "USDC"
            return PriceWalk(seed: h, dailyVolatility: stable ? 0.002 : 0.02 + Double(h % 1_000) / 1_000 * 0.05)
        }
        var markets: [SimMarket] = []
        let btcKRW = real[0].price
        let usdtKRW = real.first { $0.symbol == "USDT" }!.price
        for (rank, listing) in listings.enumerated() {
            let cautions = Self.cautions(for: listing.symbol, seed: seed)
            // Busier coins first: BTC about 160 billion KRW a day, the tail a few hundred million.
            let value = 1.6e11 / pow(Double(rank + 1), 1.1) * (0.6 + Double(SimRandom.hash(seed, UInt64(rank)) % 800) / 1_000)
            let walk = walkFor(listing.symbol)
            let price = listing.price * venue.simulatedPriceFactor(seed: seed, symbol: listing.symbol)
            let lists = { (quote: String) in venue.simulatedListing(rank: rank, symbol: listing.symbol, quote: quote) }
            if lists("KRW") {
                markets.append(
                    SimMarket(
                        code: "KRW-\(listing.symbol)",
                        quote: "KRW",
                        base: listing.symbol,
                        korean: listing.korean,
                        english: listing.english,
                        warning: listing.warning,
                        cautions: cautions,
                        basePrice: price,
                        walk: walk,
                        denominator: nil,
                        dailyValue: value
                    )
                )
            }
            if rank > 0 && rank % 3 != 2 && listing.symbol != "USDT" && listing.symbol != "USDC" && rank < 200 && lists("BTC") {
                markets.append(
                    SimMarket(
                        code: "BTC-\(listing.symbol)",
                        quote: "BTC",
                        base: listing.symbol,
                        korean: listing.korean,
                        english: listing.english,
                        warning: listing.warning,
                        cautions: cautions,
                        basePrice: price / btcKRW,
                        walk: walk,
                        denominator: walkFor("BTC"),
                        dailyValue: value / btcKRW / 20
                    )
                )
            }
            if rank % 4 == 0 && listing.symbol != "USDT" && rank < 240 && lists("USDT") {
                markets.append(
                    SimMarket(
                        code: "USDT-\(listing.symbol)",
                        quote: "USDT",
                        base: listing.symbol,
                        korean: listing.korean,
                        english: listing.english,
                        warning: listing.warning,
                        cautions: cautions,
                        basePrice: listing.price / usdtKRW,
                        walk: walk,
                        denominator: walkFor("USDT"),
                        dailyValue: value / usdtKRW / 30
                    )
                )
            }
        }
        self.markets = markets
        var index: [String: Int] = [:]
        for (i, market) in markets.enumerated() { index[market.code] = i }
        byCode = index
    }

    func market(_ code: String) -> SimMarket? {
        byCode[code.uppercased()].map { markets[$0] }
    }

    func markets(quote: String) -> [SimMarket] {
        markets.filter { $0.quote == quote }
    }

    /// About one listing in five carries a caution reason, most often global price differences.
    private static func cautions(for symbol: String, seed: UInt64) -> [String] {
        let h = SimRandom.hash(seed, SimRandom.hash(symbol), 7)
        guard h % 5 == 0 else { return [] }
        return h % 3 == 0 ? ["GLOBAL_PRICE_DIFFERENCES", "PRICE_FLUCTUATIONS"] : ["GLOBAL_PRICE_DIFFERENCES"]
    }
}
