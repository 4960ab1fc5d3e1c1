import Foundation
import SiseCore

/// Writes WebSocket ticker frames in DEFAULT or SIMPLE keys, spelling numbers as the wire does
/// (trailing-zero decimals, `0E-8` on an unchanged price).
enum SimStreamTickerWriter {
    static func write(_ market: SimMarket, _ s: SimTickerState, format: SimSubscription.Format, snapshot: Bool) -> String {
        let simple = format == .simple
        func k(_ long: String, _ short: String) -> String { simple ? short : long }
        var json = JSONWriter(capacity: 1_000)
        let tradeSeconds = Int(s.tradeTimestamp / 1_000)
        let even = s.change == "EVEN"
        json.beginObject()
        json.field(k("type", "ty"), "ticker")
        json.field(k("code", "cd"), market.code)
        decimal(&json, k("opening_price", "op"), s.open)
        decimal(&json, k("high_price", "hp"), s.high)
        decimal(&json, k("low_price", "lp"), s.low)
        decimal(&json, k("trade_price", "tp"), s.price)
        decimal(&json, k("prev_closing_price", "pcp"), s.prevClose)
        decimal(&json, k("acc_trade_price", "atp"), s.dayValue)
        json.field(k("change", "c"), s.change)
        if even {
            for name in [k("change_price", "cp"), k("signed_change_price", "scp")] {
                json.key(name)
                json.raw("0E-8")
            }
            for name in [k("change_rate", "cr"), k("signed_change_rate", "scr")] {
                json.key(name)
                json.raw("0")
            }
        } else {
            decimal(&json, k("change_price", "cp"), abs(s.signedChange))
            decimal(&json, k("signed_change_price", "scp"), s.signedChange)
            decimal(&json, k("change_rate", "cr"), abs(s.signedRate), places: 10)
            decimal(&json, k("signed_change_rate", "scr"), s.signedRate, places: 10)
        }
        json.field(k("ask_bid", "ab"), s.tradeTimestamp % 2 == 0 ? "BID" : "ASK")
        decimal(&json, k("trade_volume", "tv"), s.volume24h / 5_000)
        decimal(&json, k("acc_trade_volume", "atv"), s.dayVolume)
        json.field(k("trade_date", "tdt"), SimTime.compactDate(tradeSeconds))
        json.field(k("trade_time", "ttm"), SimTime.compactTime(tradeSeconds))
        json.field(k("trade_timestamp", "ttms"), int: s.tradeTimestamp)
        decimal(&json, k("acc_ask_volume", "aav"), s.dayVolume * 0.52)
        decimal(&json, k("acc_bid_volume", "abv"), s.dayVolume * 0.48)
        decimal(&json, k("highest_52_week_price", "h52wp"), s.high52)
        json.field(k("highest_52_week_date", "h52wdt"), s.high52Date)
        decimal(&json, k("lowest_52_week_price", "l52wp"), s.low52)
        json.field(k("lowest_52_week_date", "l52wdt"), s.low52Date)
        json.field(k("market_state", "ms"), "ACTIVE")
        json.field(k("is_trading_suspended", "its"), false)
        json.key(k("delisting_date", "dd"))
        json.null()
        json.field(k("market_warning", "mw"), market.warning ? "CAUTION" : "NONE")
        json.field(k("timestamp", "tms"), int: s.timestamp)
        decimal(&json, k("acc_trade_price_24h", "atp24h"), s.value24h)
        decimal(&json, k("acc_trade_volume_24h", "atv24h"), s.volume24h)
        json.field(k("stream_type", "st"), snapshot ? "SNAPSHOT" : "REALTIME")
        json.endObject()
        return json.text
    }

    /// Fixed decimals with trailing zeros, as Upbit's Java BigDecimal spells them.
    private static func decimal(_ json: inout JSONWriter, _ key: String, _ value: Double, places: Int = 8) {
        json.key(key)
        json.raw(NumberText.fixed(value, decimals: places))
    }
}
