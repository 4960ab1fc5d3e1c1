import Foundation

/// A market's order book and trade tape on the simulator, consistent with its ticker: the book
/// sits on the price by the tick ladder (the best ask at the price, the best bid one tick below,
/// levels a tick apart), and the tape is the price walk's last moves, each trade at the touch
/// (a rise bought at the ask, a fall sold at the bid). Sizes are a deterministic function of the
/// market and the moment, so two reads of one moment agree.
enum SimBook {
    struct Level {
        var price: Double
        var size: Double
    }

    struct Trade {
        /// Unique per trade, like Upbit's `sequential_id` (equal times happen; ids never repeat).
        var id: Int64
        var at: Int64
        var price: Double
        var size: Double
        /// The taker bought.
        var buy: Bool
    }

    /// One trade every this many milliseconds on the tape.
    static let tradeSpacing: Int64 = 1_500

    /// `levels` asks (ascending) and bids (descending) around `price`; `crossed` (a fault) puts
    /// the bids above the asks.
    static func book(_ market: SimMarket, price: Double, at ms: Int64, levels: Int, crossed: Bool = false) -> (asks: [Level], bids: [Level]) {
        let touch = SimTickSize.snap(price, quote: market.quote)
        let (mantissa, exponent) = SimTickSize.tick(price: touch, quote: market.quote)
        let tick = Double(mantissa) * pow(10, Double(exponent))
        let moment = UInt64(max(0, ms / 500))
        func size(_ side: UInt64, _ level: Int) -> Double {
            let h = SimRandom.hash(SimRandom.hash(market.code), side, UInt64(level), moment)
            // Thousandths of a unit, a few to a few hundred coins' worth of KRW at the touch.
            let units = Double(h % 40_000 + 1) / 1_000
            return ((units * 100_000 / max(touch, 1e-8) * 1_000).rounded() + 1) / 1_000
        }
        let asks = (0..<levels).map { Level(price: SimTickSize.snap(touch + Double($0) * tick, quote: market.quote), size: size(1, $0)) }
        let bids = (0..<levels).compactMap { i -> Level? in
            let p = crossed ? touch + Double(levels - i) * tick : touch - Double(i + 1) * tick
            return p > 0 ? Level(price: SimTickSize.snap(p, quote: market.quote), size: size(2, i)) : nil
        }
        return (asks, bids)
    }

    /// The last `count` trades before `now`, newest first, on `exchange`'s price walk.
    static func trades(_ market: SimMarket, on exchange: SimExchange, count: Int, now ms: Int64) -> [Trade] {
        let last = ms / tradeSpacing
        return (0..<Int64(max(0, count))).map { back in
            let slot = last - back
            let at = slot * tradeSpacing
            let price = SimTickSize.snap(exchange.ticker(market, atMilliseconds: at).price, quote: market.quote)
            let before = SimTickSize.snap(exchange.ticker(market, atMilliseconds: at - tradeSpacing).price, quote: market.quote)
            let h = SimRandom.hash(SimRandom.hash(market.code), UInt64(bitPattern: slot))
            let buy = price == before ? h % 2 == 0 : price > before
            let size = ((Double(h % 5_000 + 1) / 1_000 * 100_000 / max(price, 1e-8) * 10_000).rounded() + 1) / 10_000
            return Trade(id: slot * 1_000 + Int64(h % 1_000), at: at, price: price, size: size, buy: buy)
        }
    }
}
