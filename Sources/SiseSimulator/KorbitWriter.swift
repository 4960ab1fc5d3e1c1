import Foundation
import SiseCore

/// Korbit v2 shapes: the `{"success":…}` envelope, string numbers, lower-case `btc_krw`
/// symbols, percent (not fraction) changes.
enum KorbitWriter {
    /// `btc_krw` for `KRW-BTC`.
    static func symbol(_ market: SimMarket) -> String {
        "\(market.base.lowercased())_\(market.quote.lowercased())"
    }

    /// Whether Korbit has stopped trading this pair (about one in twelve, never the top ten).
    static func isStopped(_ market: SimMarket, rank: Int) -> Bool {
        rank >= 10 && SimRandom.hash(SimRandom.hash(market.code), 12) % 12 == 0
    }

    /// A number as Korbit spells it: a string, no exponent, no trailing zeros.
    static func text(_ value: Double) -> String {
        var s = NumberText.fixed(value, decimals: 8)
        while s.contains(".") && (s.hasSuffix("0") || s.hasSuffix(".")) { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    static func envelope(_ data: String) -> String { #"{"success":true,"data":"# + data + "}" }

    static func error(_ code: Int, _ message: String) -> String {
        #"{"success":false,"error":{"code":\#(code),"message":"\#(message)"}}"#
    }

    /// The ticker object (REST rows carry `symbol`; stream frames carry it in the envelope).
    static func ticker(_ market: SimMarket, _ s: SimTickerState, withSymbol: Bool, stopped: Bool, into json: inout JSONWriter) {
        json.beginObject()
        if withSymbol { json.field("symbol", symbol(market)) }
        json.field("open", text(s.open))
        json.field("high", text(s.high))
        json.field("low", text(s.low))
        json.field("close", text(s.price))
        json.field("prevClose", text(s.prevClose))
        json.field("priceChange", text(s.signedChange))
        json.field("priceChangePercent", NumberText.fixed(s.signedRate * 100, decimals: 2))
        json.field("volume", text(s.volume24h))
        json.field("quoteVolume", text(s.value24h))
        json.field("bestAskPrice", stopped ? "0" : text(s.price * 1.0005))
        json.field("bestBidPrice", stopped ? "0" : text(s.price * 0.9995))
        json.field("lastTradedAt", int: s.tradeTimestamp)
        json.endObject()
    }

    /// `{"symbol":…,"timestamp":…,"type":"ticker","snapshot":true,"data":{…}}`; later frames
    /// omit `snapshot`, as Korbit's do.
    static func tickerFrame(_ market: SimMarket, _ s: SimTickerState, snapshot: Bool, stopped: Bool) -> String {
        var json = JSONWriter(capacity: 600)
        json.beginObject()
        json.field("symbol", symbol(market))
        json.field("timestamp", int: s.timestamp)
        json.field("type", "ticker")
        if snapshot { json.field("snapshot", true) }
        json.key("data")
        ticker(market, s, withSymbol: false, stopped: stopped, into: &json)
        json.endObject()
        return json.text
    }
}
