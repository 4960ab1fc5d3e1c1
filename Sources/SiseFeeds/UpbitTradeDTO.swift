import Foundation
import SiseCore

/// A row of `GET /v1/trades/ticks` (`change_price` is signed here, unlike the ticker).
struct UpbitTradeDTO: Decodable {
    var market: String
    var timestamp: Int64
    var trade_price: Double
    var trade_volume: Double
    var prev_closing_price: Double?
    var change_price: Double?
    var ask_bid: String
    var sequential_id: Int64

    func toTrade() throws -> Trade {
        guard let id = MarketID(market), let side = Trade.Side(rawValue: ask_bid) else {
            throw FeedError.malformedPayload(context: "trades: bad market or side in \(market)")
        }
        return Trade(
            market: id,
            price: trade_price,
            volume: trade_volume,
            side: side,
            timestamp: timestamp,
            sequentialID: sequential_id,
            prevClosingPrice: prev_closing_price ?? 0,
            changePrice: change_price ?? 0
        )
    }
}
