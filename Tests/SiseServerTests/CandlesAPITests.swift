import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseTestSupport
import Testing

@Suite struct CandlesAPITests {
    @Test func candlesWithIndicatorsAndTheChartSVG() async throws {
        try await ServerHarness.run { client in
            let answer = try await client.execute(uri: "/api/candles/KRW-BTC?interval=15m&count=30", method: .get)
            #expect(answer.status == .ok)
            let body = try #require(json(answer) as? [String: Any])
            #expect(body["interval"] as? String == "15m" && body["market"] as? String == "KRW-BTC" && body["exchange"] as? String == "upbit")
            let rows = try #require(body["candles"] as? [[String: Any]])
            #expect(rows.count == 30)
            // The newest candle carries the live price (within the candle's range).
            let board = try #require(json(try await client.execute(uri: "/api/markets/KRW-BTC", method: .get)) as? [String: Any])
            let live = try #require(board["price"] as? Double)
            let last = try #require(rows.last)
            let close = try #require(last["close"] as? Double)
            #expect(abs(close - live) / live < 0.01)

            let svg = try await client.execute(uri: "/api/candles/KRW-BTC/chart.svg?interval=1h&indicators=ma,ema,bb,rsi,macd", method: .get)
            #expect(svg.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            let text = String(buffer: svg.body)
            #expect(text.contains("data-overlays=\"ma,ema,bb,rsi,macd\"") && text.contains("class=\"rsi\"") && text.contains("class=\"macd\""))
            for bad in [
                "/api/candles/KRW-BTC?interval=3h", "/api/candles/KRW-BTC?count=500", "/api/candles/%3Cb%3E",
                "/api/candles/KRW-BTC/chart.svg?indicators=magic",
            ] {
                #expect(try await client.execute(uri: bad, method: .get).status == .badRequest, "\(bad)")
            }
            #expect(try await client.execute(uri: "/api/candles/KRW-NOPE", method: .get).status == .notFound)
        }
    }
}
