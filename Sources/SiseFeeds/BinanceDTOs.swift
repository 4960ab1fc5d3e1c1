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
