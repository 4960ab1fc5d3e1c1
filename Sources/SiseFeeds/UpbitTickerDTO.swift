import Foundation
import SiseCore

/// A row of `GET /v1/ticker` and `/v1/ticker/all`, read through the one field table
/// (`UpbitTickerField`). Optional fields tolerate older or regional answers; unknown keys are
/// ignored.
struct UpbitTickerDTO: Decodable {
    let values: UpbitTickerValues

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        let code = try c.decode(String.self, forKey: AnyKey(UpbitTickerField.restMarketKey))
        guard let id = MarketID(code) else {
            throw FeedError.malformedPayload(context: "ticker: bad market code \(code.prefix(40))")
        }
        guard let price = try c.field(Double.self, .price, simple: false) else {
            throw DecodingError.keyNotFound(
                AnyKey(UpbitTickerField.price.keys.full),
                .init(codingPath: c.codingPath, debugDescription: "no trade_price")
            )
        }
        values = try UpbitTickerValues(market: id, price: price, reading: c.tickerReader(simple: false))
    }

    func toTicker() throws -> Ticker { values.ticker }
}
