import Foundation

/// Coinone's public v2 shapes: `{"result":"success","error_code":"0",…}` with the payload at the
/// top level, string numbers, ticker codes in lower case (as the live REST sends them), WebSocket
/// frames `{"response_type":"DATA","channel":"TICKER","data":{…}}` in upper case.
enum CoinoneWriter {
    static func text(_ value: Double) -> String { KorbitWriter.text(value) }

    static func success(_ fields: String) -> String {
        #"{"result":"success","error_code":"0"\#(fields.isEmpty ? "" : ",")\#(fields)}"#
    }

    /// Errors ride on HTTP 200: `108` unknown coin, `107` bad parameter, `4` rate limit.
    static func error(_ code: String, _ message: String) -> String {
        #"{"result":"error","error_code":"\#(code)","error_msg":"\#(message)"}"#
    }

    /// The fields a ticker row and a stream frame share.
    static func tickerFields(_ market: SimMarket, _ s: SimTickerState, lowerCase: Bool, into json: inout JSONWriter) {
        json.field("quote_currency", lowerCase ? market.quote.lowercased() : market.quote)
        json.field("target_currency", lowerCase ? market.base.lowercased() : market.base)
        json.field("timestamp", int: s.timestamp)
        json.field("high", text(s.high))
        json.field("low", text(s.low))
        json.field("first", text(s.open))
        json.field("last", text(s.price))
        json.field("quote_volume", text(s.value24h))
        json.field("target_volume", text(s.volume24h))
        json.field("id", "\(s.timestamp)001")
        json.field("yesterday_last", text(s.prevClose))
    }

    /// A `ticker_new` row (with `additional_data=true`).
    static func ticker(_ market: SimMarket, _ s: SimTickerState, into json: inout JSONWriter) {
        json.beginObject()
        tickerFields(market, s, lowerCase: true, into: &json)
        for (name, price) in [("best_asks", s.price * 1.0005), ("best_bids", s.price * 0.9995)] {
            json.key(name)
            json.beginArray()
            json.beginObject()
            json.field("price", text(price))
            json.field("qty", "1.0")
            json.endObject()
            json.endArray()
        }
        json.endObject()
    }

    /// A `TICKER` data frame.
    static func tickerFrame(_ market: SimMarket, _ s: SimTickerState) -> String {
        var json = JSONWriter(capacity: 600)
        json.beginObject()
        json.field("response_type", "DATA")
        json.field("channel", "TICKER")
        json.key("data")
        json.beginObject()
        tickerFields(market, s, lowerCase: false, into: &json)
        json.field("volume_power", "100")
        json.field("ask_best_price", text(s.price * 1.0005))
        json.field("ask_best_qty", "1.0")
        json.field("bid_best_price", text(s.price * 0.9995))
        json.field("bid_best_qty", "1.0")
        json.endObject()
        json.endObject()
        return json.text
    }
}
