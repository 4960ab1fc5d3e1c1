import Foundation
import Hummingbird
import SiseCore

/// How the simulator plays each exchange of the registry (`Exchange`, whose cases the registry
/// holds one spec each): what it lists, how far its prices sit from the reference venue, its
/// request budget and where its REST and stream routes are mounted. Every switch here is
/// exhaustive, so an exchange added to Sise cannot be left out of the simulator. All venues share
/// one universe of coins and price walks; each lists its own subset and trades a little above or
/// below the reference, so the cross-exchange board has gaps to show.
extension Exchange {
    /// Whether this venue lists the coin of listing rank `rank` (0 = BTC) on `quote`.
    func simulatedListing(rank: Int, symbol: String, quote: String) -> Bool {
        switch self {
        case .upbit: return true
        // Bithumb: KRW and BTC markets, most coins (not every seventh).
        case .bithumb: return quote != "USDT" && (rank < 10 || rank % 7 != 3)
        // Korbit: KRW only, the better known coins.
        case .korbit: return quote == "KRW" && rank < 180 && (rank < 10 || rank % 5 != 4)
        // Coinone: KRW only, a different few left out.
        case .coinone: return quote == "KRW" && rank < 200 && (rank < 10 || rank % 6 != 5)
        }
    }

    /// The venue's premium over the reference venue (the default exchange) for a coin: fixed,
    /// within ±0.6 %.
    func simulatedPriceFactor(seed: UInt64, symbol: String) -> Double {
        guard self != .default else { return 1 }
        let h = SimRandom.hash(seed, SimRandom.hash(symbol + ":" + rawValue))
        return 1 + (Double(h % 1_201) - 600) / 100_000
    }

    /// Requests a second the venue takes before it answers 429: Upbit 10 per group, Korbit 50
    /// per address, Bithumb 150 per group, Coinone 20 per address (1,200 a minute).
    var simulatedRequestsPerSecond: Int {
        switch self {
        case .upbit: 10
        case .korbit: 50
        case .bithumb: 150
        case .coinone: 20
        }
    }

    /// Mounts the venue's REST API and ticker stream where the registry's spec expects them
    /// (`ExchangeSpec.simulatorPath`; a test holds the two together).
    func mountSimulated(_ venue: SimExchange, wallets: SimWallets, on router: Router<SimRequestContext>) {
        switch self {
        case .upbit:
            UpbitRESTController(exchange: venue).addRoutes(to: router)
            UpbitStreamController(exchange: venue, hub: venue.hub).addRoutes(to: router)
        case .bithumb:
            UpbitRESTController(exchange: venue, bithumb: true).addRoutes(to: router)
            UpbitStreamController(exchange: venue, hub: venue.hub, path: "/bithumb/websocket/v1").addRoutes(to: router)
        case .korbit:
            KorbitRESTController(exchange: venue).addRoutes(to: router)
            KorbitStreamController(exchange: venue).addRoutes(to: router)
        case .coinone:
            CoinoneRESTController(exchange: venue, wallets: wallets).addRoutes(to: router)
            CoinoneStreamController(exchange: venue).addRoutes(to: router)
        }
    }
}
