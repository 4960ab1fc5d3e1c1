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
