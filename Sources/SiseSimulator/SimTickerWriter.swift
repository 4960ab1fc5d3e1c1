import Foundation

/// Writes tickers in Upbit's REST shape (`/v1/ticker`, `/v1/ticker/all`).
enum SimTickerWriter {
    static func write(_ market: SimMarket, _ s: SimTickerState, into json: inout JSONWriter) {
        let tradeSeconds = Int(s.tradeTimestamp / 1_000)
        json.beginObject()
        json.field("market", market.code)
        json.field("trade_date", SimTime.compactDate(tradeSeconds))
        json.field("trade_time", SimTime.compactTime(tradeSeconds))
        json.field("trade_date_kst", SimTime.compactDate(tradeSeconds + SimTime.kstOffset))
        json.field("trade_time_kst", SimTime.compactTime(tradeSeconds + SimTime.kstOffset))
        json.field("trade_timestamp", int: s.tradeTimestamp)
        json.field("opening_price", s.open)
        json.field("high_price", s.high)
        json.field("low_price", s.low)
        json.field("trade_price", s.price)
        json.field("prev_closing_price", s.prevClose)
        json.field("change", s.change)
        if s.change == "EVEN" {
            // Upbit spells the four change fields of an unchanged row as integer 0.
            for name in ["change_price", "change_rate", "signed_change_price", "signed_change_rate"] {
                json.key(name)
                json.raw("0")
            }
        } else {
            json.field("change_price", abs(s.signedChange))
            json.field("change_rate", abs(s.signedRate))
            json.field("signed_change_price", s.signedChange)
            json.field("signed_change_rate", s.signedRate)
        }
        json.field("trade_volume", (s.volume24h / 5_000).rounded(toPlaces: 8))
        json.field("acc_trade_price", s.dayValue)
        json.field("acc_trade_price_24h", s.value24h)
        json.field("acc_trade_volume", s.dayVolume.rounded(toPlaces: 8))
        json.field("acc_trade_volume_24h", s.volume24h.rounded(toPlaces: 8))
        json.field("highest_52_week_price", s.high52)
        json.field("highest_52_week_date", s.high52Date)
        json.field("lowest_52_week_price", s.low52)
        json.field("lowest_52_week_date", s.low52Date)
        json.field("timestamp", int: s.timestamp)
        json.endObject()
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
