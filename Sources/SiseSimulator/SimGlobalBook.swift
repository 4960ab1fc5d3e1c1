import Foundation

/// A global venue's order book of one coin around its price: 20 levels a side a hundredth of a
/// percent apart, sizes worth a few thousand dollars each, a deterministic function of the coin
/// and the half second (two reads of one moment agree).
enum SimGlobalBook {
    static func levels(symbol: String, price: Double, at t: Double) -> (asks: [(String, String)], bids: [(String, String)]) {
        let moment = UInt64(max(0, t * 2))
        func size(_ side: UInt64, _ level: Int) -> String {
            let h = SimRandom.hash(SimRandom.hash(symbol), side, UInt64(level), moment)
            return SimBinance.decimal(Double(h % 9_000 + 1_000) / max(price, 1e-8))
        }
        let asks = (0..<20).map { (SimBinance.decimal(price * (1 + 0.0001 * Double($0 + 1))), size(1, $0)) }
        let bids = (0..<20).map { (SimBinance.decimal(price * (1 - 0.0001 * Double($0 + 1))), size(2, $0)) }
        return (asks, bids)
    }

    /// `[["price","size"],…]`, with `extra` fields after each pair (OKX's `"0","1"`).
    static func json(_ levels: [(String, String)], extra: String = "") -> String {
        "[" + levels.map { #"["\#($0.0)","\#($0.1)"\#(extra)]"# }.joined(separator: ",") + "]"
    }
}
