import Foundation

/// `/api/v3/ticker/price`: `{"symbol":"BTCUSDT","price":"67291.01000000"}` (prices are strings).
struct BinancePriceDTO: Decodable {
    let symbol: String
    let price: String
}

/// A `24hrMiniTicker` event: `s` the pair, `c` the last price (a string), `E` the event time.
struct BinanceMiniTickerDTO: Decodable {
    let s: String
    let c: String
    let E: Int64?
}

/// A combined-stream frame: `{"stream":"…","data":…}`.
struct BinanceCombinedDTO<Payload: Decodable>: Decodable {
    let stream: String
    let data: Payload
}

/// Binance's error body: `{"code":-1121,"msg":"Invalid symbol."}`.
struct BinanceErrorDTO: Decodable {
    let code: Int?
    let msg: String?
}

enum BinancePairs {
    /// `BTCUSDT` → `BTC`; nil for a pair not quoted in USDT or with a price that is not a
    /// positive finite number.
    static func usdt(_ symbol: String, _ price: String) -> (String, Double)? {
        guard symbol.hasSuffix("USDT"), symbol.count > 4, let value = Double(price), value.isFinite, value > 0 else { return nil }
        return (String(symbol.dropLast(4)), value)
    }
}

/// `/api/v3/ticker/bookTicker`: the best bid and ask of a pair, every figure a string.
struct BinanceBookDTO: Decodable {
    let symbol: String
    let bidPrice: String
    let bidQty: String
    let askPrice: String
    let askQty: String
}

/// A pair's best bid and ask abroad, and when they were read (epoch ms).
public struct BookTop: Sendable, Equatable {
    public var bid: Double
    public var bidQuantity: Double
    public var ask: Double
    public var askQuantity: Double
    public var at: Int64
}

extension BinancePairs {
    /// The books of the pairs quoted in `quote`, by base symbol; a row whose figures are not
    /// positive numbers, or whose bid is above its ask, is left out.
    static func books(_ body: Data, quote: String, at: Int64) throws -> [String: BookTop] {
        guard let rows = try? JSONDecoder().decode([BinanceBookDTO].self, from: body) else {
            throw FeedError.malformedPayload(context: "binance /api/v3/ticker/bookTicker")
        }
        var books: [String: BookTop] = [:]
        for row in rows where row.symbol.hasSuffix(quote) && row.symbol.count > quote.count {
            guard let bid = Double(row.bidPrice), let bidQuantity = Double(row.bidQty), let ask = Double(row.askPrice),
                let askQuantity = Double(row.askQty), [bid, bidQuantity, ask, askQuantity].allSatisfy({ $0.isFinite && $0 > 0 }), bid <= ask
            else { continue }
            books[String(row.symbol.dropLast(quote.count))] = BookTop(bid: bid, bidQuantity: bidQuantity, ask: ask, askQuantity: askQuantity, at: at)
        }
        return books
    }
}
