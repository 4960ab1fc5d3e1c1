import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise candles` as a script reads it: oldest first, every indicator key present, null until
/// enough candles exist.
@Suite struct CandlesCommandTests {
    @Test func jsonRowsCarryEveryIndicatorKey() async throws {
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString
            let result = try await SiseBinary.run(["candles", "KRW-BTC", "--interval", "1h", "--count", "150", "--json", "--upbit-url", url])
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(rows.count == 150)
            let times = rows.compactMap { $0["time"] as? Int64 }
            #expect(times == times.sorted() && Set(times).count == times.count, "oldest first, one row a candle")
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 3_600_000 })
            for row in rows {
                #expect(Set(row.keys) == ["time", "open", "high", "low", "close", "volume", "ma", "ema", "bb", "rsi", "macd"])
                #expect(Set((row["ma"] as? [String: Any])?.keys ?? [:].keys) == ["5", "20", "60", "120"])
                #expect(Set((row["macd"] as? [String: Any])?.keys ?? [:].keys) == ["macd", "signal", "histogram"])
            }
            // 200 candles fetched: the 150 shown start at the 51st, so MA 120 is null for the first 69.
            let ma120 = rows.map { ($0["ma"] as? [String: Any])?["120"] }
            #expect(ma120.prefix(69).allSatisfy { $0 is NSNull })
            #expect(ma120.dropFirst(69).allSatisfy { $0 is Double })
            let last = try #require(rows.last)
            let close = try #require(last["close"] as? Double)
            let high = try #require(last["high"] as? Double)
            let low = try #require(last["low"] as? Double)
            #expect(low <= close && close <= high)
            let rsi = try #require(last["rsi"] as? Double)
            #expect((0...100).contains(rsi))

            let table = try await SiseBinary.run(["candles", "BTC", "--interval", "1d", "--count", "5", "--upbit-url", url, "--lang", "en"])
            #expect(table.status == 0)
            #expect(table.stdout.split(separator: "\n").count == 6)
            #expect(table.stdout.contains("MA20") && table.stdout.contains("RSI14"))
            #expect(try await SiseBinary.run(["candles", "KRW-BTC", "--interval", "2h", "--upbit-url", url]).status == 2)
            #expect(try await SiseBinary.run(["candles", "KRW-BTC", "--count", "0", "--upbit-url", url]).status == 2)
        }
    }
}
