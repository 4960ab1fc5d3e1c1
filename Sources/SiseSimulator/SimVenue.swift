import Foundation

/// Which exchange a simulated venue plays. All share one universe of coins and price
/// walks; each lists its own subset and trades a little above or below Upbit, so the
/// cross-exchange board has gaps to show.
public enum SimVenue: String, Sendable, CaseIterable {
    case upbit, korbit, bithumb, coinone

    /// Whether this venue lists the coin of listing rank `rank` (0 = BTC) on `quote`.
    func lists(rank: Int, symbol: String, quote: String) -> Bool {
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

    /// The venue's premium over Upbit for a coin: fixed, within ±0.6 % (none on Upbit).
    func priceFactor(seed: UInt64, symbol: String) -> Double {
        guard self != .upbit else { return 1 }
        let h = SimRandom.hash(seed, SimRandom.hash(symbol + ":" + rawValue))
        return 1 + (Double(h % 1_201) - 600) / 100_000
    }
}
