import Foundation
import SiseCore

/// A row of `GET /v1/ticker` and `/v1/ticker/all`. Optional fields tolerate older or regional
/// answers; unknown keys are ignored.
struct UpbitTickerDTO: Decodable {
    var market: String
    var trade_price: Double
    var change: String?
    var signed_change_price: Double?
    var signed_change_rate: Double?
    var change_price: Double?
    var change_rate: Double?
    var opening_price: Double?
    var high_price: Double?
    var low_price: Double?
    var prev_closing_price: Double?
    var acc_trade_price_24h: Double?
    var acc_trade_volume_24h: Double?
    var highest_52_week_price: Double?
    var highest_52_week_date: String?
    var lowest_52_week_price: Double?
    var lowest_52_week_date: String?
    var trade_timestamp: Int64?
    var timestamp: Int64?

    func toTicker() throws -> Ticker {
        guard let id = MarketID(market) else {
            throw FeedError.malformedPayload(context: "ticker: bad market code \(market)")
        }
        let direction = change.flatMap { PriceChange(rawValue: $0) }
        let signedPrice = signed_change_price ?? Self.sign(change_price, direction)
        let signedRate = signed_change_rate ?? Self.sign(change_rate, direction)
        return Ticker(
            market: id, price: trade_price,
            change: direction ?? PriceChange(signed: signedPrice),
            signedChangePrice: signedPrice, signedChangeRate: signedRate,
            openingPrice: opening_price ?? 0, highPrice: high_price ?? 0, lowPrice: low_price ?? 0,
            prevClosingPrice: prev_closing_price ?? 0,
            tradeValue24h: acc_trade_price_24h ?? 0, tradeVolume24h: acc_trade_volume_24h ?? 0,
            highest52WeekPrice: highest_52_week_price, highest52WeekDate: highest_52_week_date,
            lowest52WeekPrice: lowest_52_week_price, lowest52WeekDate: lowest_52_week_date,
            tradeTimestamp: trade_timestamp ?? timestamp ?? 0, timestamp: timestamp ?? trade_timestamp ?? 0)
    }

    /// Older rows give only the absolute change; the direction supplies the sign.
    static func sign(_ magnitude: Double?, _ direction: PriceChange?) -> Double {
        let value = abs(magnitude ?? 0)
        return direction == .fall ? -value : value
    }
}
