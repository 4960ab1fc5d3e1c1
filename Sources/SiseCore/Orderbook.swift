import Foundation

/// A full order book (Upbit never sends deltas), best levels first, empty padding removed.
public struct Orderbook: Hashable, Sendable {
    public struct Level: Hashable, Sendable {
        public var askPrice: Double
        public var askSize: Double
        public var bidPrice: Double
        public var bidSize: Double

        public init(askPrice: Double, askSize: Double, bidPrice: Double, bidSize: Double) {
            self.askPrice = askPrice
            self.askSize = askSize
            self.bidPrice = bidPrice
            self.bidSize = bidSize
        }
    }

    public var market: MarketID
    /// Epoch milliseconds of the book's last change.
    public var timestamp: Int64
    public var totalAskSize: Double
    public var totalBidSize: Double
    public var levels: [Level]

    public init(market: MarketID, timestamp: Int64, totalAskSize: Double, totalBidSize: Double, levels: [Level]) {
        self.market = market
        self.timestamp = timestamp
        self.totalAskSize = totalAskSize
        self.totalBidSize = totalBidSize
        // A thin side is padded with zero slots on the wire; they are not levels.
        self.levels = levels.filter { $0.askPrice > 0 || $0.bidPrice > 0 }
    }
}

extension Orderbook {
    /// One side's level: a price and the size resting there.
    public struct Quote: Hashable, Sendable {
        public var price: Double
        public var size: Double

        public init(price: Double, size: Double) {
            self.price = price
            self.size = size
        }
    }

    /// Why a book from upstream is not shown: it is dropped and counted instead.
    public enum Problem: Error, Equatable, Sendable {
        /// The best bid is not below the best ask.
        case crossed
        /// A side is not best first (asks ascending, bids descending, no repeats).
        case unsorted
        /// A size or price that is negative or not a number.
        case badFigure
    }

    /// Asks, best (lowest) first.
    public var asks: [Quote] { levels.filter { $0.askPrice > 0 }.map { Quote(price: $0.askPrice, size: $0.askSize) } }
    /// Bids, best (highest) first.
    public var bids: [Quote] { levels.filter { $0.bidPrice > 0 }.map { Quote(price: $0.bidPrice, size: $0.bidSize) } }

    /// A book from two sides of any lengths (Korbit's shape); the totals are the sides' sums.
    public init(market: MarketID, timestamp: Int64, asks: [Quote], bids: [Quote]) {
        let depth = max(asks.count, bids.count)
        let levels = (0..<depth).map { i in
            Level(
                askPrice: i < asks.count ? asks[i].price : 0,
                askSize: i < asks.count ? asks[i].size : 0,
                bidPrice: i < bids.count ? bids[i].price : 0,
                bidSize: i < bids.count ? bids[i].size : 0
            )
        }
        // Summed to the exchanges' own precision (eight decimals), without binary noise.
        func total(_ side: [Quote]) -> Double { (side.reduce(0) { $0 + $1.size } * 1e8).rounded() / 1e8 }
        self.init(market: market, timestamp: timestamp, totalAskSize: total(asks), totalBidSize: total(bids), levels: levels)
    }

    /// The book when it is consistent — both sides best first, best bid below best ask, no
    /// negative or non-finite figure; otherwise why not.
    public func checked() throws(Problem) -> Orderbook {
        // Every figure, padding included (a NaN price would otherwise read as an empty slot).
        for level in levels where ![level.askPrice, level.askSize, level.bidPrice, level.bidSize].allSatisfy({ $0.isFinite && $0 >= 0 }) {
            throw .badFigure
        }
        let asks = asks
        let bids = bids
        guard zip(asks, asks.dropFirst()).allSatisfy({ $0.price < $1.price }),
            zip(bids, bids.dropFirst()).allSatisfy({ $0.price > $1.price })
        else { throw .unsorted }
        if let ask = asks.first, let bid = bids.first, bid.price >= ask.price { throw .crossed }
        return self
    }

    /// The first `count` levels of each side.
    public func top(_ count: Int) -> Orderbook {
        Orderbook(
            market: market,
            timestamp: timestamp,
            totalAskSize: totalAskSize,
            totalBidSize: totalBidSize,
            levels: Array(levels.prefix(max(0, count)))
        )
    }
}
