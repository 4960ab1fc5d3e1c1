import Foundation

/// One executed trade. `sequentialID` is unique per trade but is not an ordering key.
public struct Trade: Hashable, Sendable {
    public enum Side: String, Sendable, Codable {
        /// The taker sold.
        case ask = "ASK"
        /// The taker bought.
        case bid = "BID"
    }

    public var market: MarketID
    public var price: Double
    public var volume: Double
    public var side: Side
    /// Epoch milliseconds.
    public var timestamp: Int64
    public var sequentialID: Int64
    public var prevClosingPrice: Double
    /// Signed change against the previous close.
    public var changePrice: Double

    public init(
        market: MarketID,
        price: Double,
        volume: Double,
        side: Side,
        timestamp: Int64,
        sequentialID: Int64,
        prevClosingPrice: Double,
        changePrice: Double
    ) {
        self.market = market
        self.price = price
        self.volume = volume
        self.side = side
        self.timestamp = timestamp
        self.sequentialID = sequentialID
        self.prevClosingPrice = prevClosingPrice
        self.changePrice = changePrice
    }
}
