import Foundation
import SiseCore

/// A row of `GET /v1/candles/*`. `candle_date_time_utc` has no zone suffix and is UTC.
struct UpbitCandleDTO: Decodable {
    var market: String
    var candle_date_time_utc: String
    var opening_price: Double
    var high_price: Double
    var low_price: Double
    var trade_price: Double
    var timestamp: Int64?
    var candle_acc_trade_price: Double?
    var candle_acc_trade_volume: Double?

    func toCandle() throws -> Candle {
        guard let id = MarketID(market) else {
            throw FeedError.malformedPayload(context: "candles: bad market code \(market)")
        }
        guard let start = UpbitTime.parseUTC(candle_date_time_utc) else {
            throw FeedError.malformedPayload(context: "candles: bad time \(candle_date_time_utc)")
        }
        return Candle(
            market: id,
            start: start,
            open: opening_price,
            high: high_price,
            low: low_price,
            close: trade_price,
            volume: candle_acc_trade_volume ?? 0,
            value: candle_acc_trade_price ?? 0,
            lastTradeAt: timestamp ?? 0
        )
    }
}

/// Upbit's zone-less `yyyy-MM-ddTHH:mm:ss` strings.
enum UpbitTime {
    static func parseUTC(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" || $0 == " " })
        guard parts.count >= 6, let y = Int(parts[0]), let mo = Int(parts[1]), let d = Int(parts[2]),
            let h = Int(parts[3]), let mi = Int(parts[4]), let s = Int(parts[5].prefix(2))
        else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (y, mo, d)
        (components.hour, components.minute, components.second) = (h, mi, s)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)
    }
}
