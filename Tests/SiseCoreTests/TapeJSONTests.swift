import Foundation
import SiseCore
import Testing

/// The tape and the book as the page receives them: 체결강도 and the KST time decided by the
/// core, so the page only writes them out.
@Suite struct TapeJSONTests {
    static let btc = MarketID("KRW-BTC")!

    static func trade(_ side: Trade.Side, _ volume: Double, id: Int64) -> Trade {
        Trade(
            market: btc,
            price: 100,
            volume: volume,
            side: side,
            timestamp: 1_795_305_225_000 + id,
            sequentialID: id,
            prevClosingPrice: 0,
            changePrice: 0
        )
    }

    static func encoded(_ value: some Encodable) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
    }

    /// Buys, sells → strength (number and text); no sells → null, stated as null.
    static let cases: [(buys: [Double], sells: [Double], strength: Double?, text: String?)] = [
        ([3], [2], 150, "150.00%"),
        ([1, 1], [3], 200.0 / 3, "66.67%"),
        ([25_000], [1], 2_500_000, "2,500,000.00%"),
        ([1], [], nil, nil),
        ([], [], nil, nil),
    ]

    @Test(arguments: cases.indices)
    func theTapeCarriesItsStrength(_ index: Int) throws {
        let row = Self.cases[index]
        var id: Int64 = 0
        let trades =
            row.buys.map { volume -> Trade in
                id += 1
                return Self.trade(.bid, volume, id: id)
            }
            + row.sells.map { volume -> Trade in
                id += 1
                return Self.trade(.ask, volume, id: id)
            }
        let json = try Self.encoded(TapeJSON(trades, exchange: .korbit, market: Self.btc, formatter: MarketFormatter(language: .ko)))
        #expect(json["exchange"] as? String == "korbit" && json["market"] as? String == "KRW-BTC")
        #expect((json["trades"] as? [Any])?.count == trades.count)
        let display = try #require(json["display"] as? [String: Any])
        if let strength = row.strength {
            #expect(abs((json["strength"] as? Double ?? 0) - strength) < 1e-9)
            #expect(display["strength"] as? String == row.text)
        } else {
            #expect(json["strength"] is NSNull, "present, as null")
            #expect(display["strength"] is NSNull)
        }
    }

    @Test func theBookCarriesItsTimeInKST() throws {
        let book = Orderbook(market: Self.btc, timestamp: 1_795_305_225_000, asks: [], bids: [])
        let json = try Self.encoded(OrderbookJSON(book, exchange: .upbit))
        #expect((json["display"] as? [String: Any])?["time"] as? String == KSTText.clock(1_795_305_225_000))
        #expect(KSTText.clock(1_795_305_225_000) == "08:53:45", "2026-11-21 23:53:45 UTC is 08:53:45 the next day in Seoul")
    }
}
