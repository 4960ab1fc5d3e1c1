import Foundation

/// 호가 and 체결 as each exchange spells them, for its REST answers and its stream frames alike:
/// Upbit's (and Bithumb's) book object and trade row, Korbit's `{timestamp, asks, bids}` and
/// `{timestamp, price, qty, isBuyerTaker, tradeId}` with string numbers.
enum SimDepthWriter {
    /// Upbit's book: a REST row names its `market`; a stream frame its `type`, `code` and `stream_type`.
    static func upbitBook(
        _ market: SimMarket,
        asks: [SimBook.Level],
        bids: [SimBook.Level],
        at ms: Int64,
        stream: String?,
        into json: inout JSONWriter
    ) {
        json.beginObject()
        if stream != nil {
            json.field("type", "orderbook")
            json.field("code", market.code)
        } else {
            json.field("market", market.code)
        }
        json.field("timestamp", int: ms)
        json.field("total_ask_size", asks.reduce(0) { $0 + $1.size })
        json.field("total_bid_size", bids.reduce(0) { $0 + $1.size })
        json.key("orderbook_units")
        json.beginArray()
        for (ask, bid) in zip(asks, bids) {
            json.beginObject()
            json.field("ask_price", ask.price)
            json.field("bid_price", bid.price)
            json.field("ask_size", ask.size)
            json.field("bid_size", bid.size)
            json.endObject()
        }
        json.endArray()
        if let stream {
            json.field("stream_type", stream)
            json.field("level", int: 0)
        }
        json.endObject()
    }

    /// Upbit's trade: a REST row (`market`) or a stream frame (`type`, `code`, `trade_timestamp`, `stream_type`).
    static func upbitTrade(_ market: SimMarket, _ trade: SimBook.Trade, prevClose: Double, stream: String?, into json: inout JSONWriter) {
        json.beginObject()
        if stream != nil {
            json.field("type", "trade")
            json.field("code", market.code)
            json.field("trade_timestamp", int: trade.at)
        } else {
            json.field("market", market.code)
        }
        json.field("timestamp", int: trade.at)
        json.field("trade_price", trade.price)
        json.field("trade_volume", trade.size)
        json.field("prev_closing_price", prevClose)
        json.field("change_price", trade.price - prevClose)
        json.field("ask_bid", trade.buy ? "BID" : "ASK")
        json.field("sequential_id", int: trade.id)
        if let stream { json.field("stream_type", stream) }
        json.endObject()
    }

    /// Korbit's book object (the REST `data`, and a stream frame's `data`).
    static func korbitBook(asks: [SimBook.Level], bids: [SimBook.Level], at ms: Int64, into json: inout JSONWriter) {
        json.beginObject()
        json.field("timestamp", int: ms)
        for (name, side) in [("asks", asks), ("bids", bids)] {
            json.key(name)
            json.beginArray()
            for level in side {
                json.beginObject()
                json.field("price", KorbitWriter.text(level.price))
                json.field("qty", KorbitWriter.text(level.size))
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
    }

    static func korbitTrade(_ trade: SimBook.Trade, into json: inout JSONWriter) {
        json.beginObject()
        json.field("timestamp", int: trade.at)
        json.field("price", KorbitWriter.text(trade.price))
        json.field("qty", KorbitWriter.text(trade.size))
        json.field("isBuyerTaker", trade.buy)
        json.field("tradeId", int: trade.id)
        json.endObject()
    }

    /// A Korbit stream frame: `{"symbol","timestamp","type",["snapshot":true,]"data":…}`.
    static func korbitFrame(_ market: SimMarket, type: String, at ms: Int64, snapshot: Bool, data: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter(capacity: 1_500)
        json.beginObject()
        json.field("symbol", KorbitWriter.symbol(market))
        json.field("timestamp", int: ms)
        json.field("type", type)
        if snapshot { json.field("snapshot", true) }
        json.key("data")
        data(&json)
        json.endObject()
        return json.text
    }
}
