import Foundation
import SiseCore

/// A row of `GET /v1/orderbook`.
struct UpbitOrderbookDTO: Decodable {
    struct Unit: Decodable {
        var ask_price: Double
        var bid_price: Double
        var ask_size: Double
        var bid_size: Double
    }

    var market: String
    var timestamp: Int64
    var total_ask_size: Double
    var total_bid_size: Double
    var orderbook_units: [Unit]

    func toOrderbook() throws -> Orderbook {
        guard let id = MarketID(market) else {
            throw FeedError.malformedPayload(context: "orderbook: bad market code \(market)")
        }
        return Orderbook(
            market: id,
            timestamp: timestamp,
            totalAskSize: total_ask_size,
            totalBidSize: total_bid_size,
            levels: orderbook_units.map {
                .init(askPrice: $0.ask_price, askSize: $0.ask_size, bidPrice: $0.bid_price, bidSize: $0.bid_size)
            }
        )
    }
}
