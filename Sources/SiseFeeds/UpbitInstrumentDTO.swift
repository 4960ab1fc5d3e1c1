import Foundation

/// A row of `GET /v1/orderbook/instruments`; `tick_size` is a string on the wire.
struct UpbitInstrumentDTO: Decodable {
    var market: String
    var quote_currency: String?
    var tick_size: String
}
