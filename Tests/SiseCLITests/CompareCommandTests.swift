import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise compare` against the simulator's three venues: the JSON row of the issue, the gap
/// computed from the prices it shows, and a table a person can read.
@Suite struct CompareCommandTests {
    @Test func jsonRowsCarryEveryVenueTheGapAndItsEnds() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let urls = ["--upbit-url", base, "--korbit-url", base, "--bithumb-url", base + "/bithumb"]
            let result = try await SiseBinary.run(["compare", "--json"] + urls)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(rows.count > 100)
            let btc = try #require(rows.first { $0["symbol"] as? String == "BTC" })
            for key in ["symbol", "koreanName", "prices", "high", "low", "gap", "stale"] { #expect(btc[key] != nil, "\(key)") }
            let prices = try #require(btc["prices"] as? [String: Double])
            #expect(Set(prices.keys) == ["upbit", "korbit", "bithumb"])
            let high = try #require(prices[btc["high"] as? String ?? ""])
            let low = try #require(prices[btc["low"] as? String ?? ""])
            #expect(high == prices.values.max() && low == prices.values.min())
            #expect(abs((btc["gap"] as? Double ?? -1) - (high - low) / low) < 1e-12)
            let gaps = rows.compactMap { $0["gap"] as? Double }
            #expect(gaps == gaps.sorted(by: >), "widest gap first")
            #expect(rows.allSatisfy { ($0["prices"] as? [String: Double])?.count ?? 0 >= 2 }, "on two exchanges at least")

            let some = try await SiseBinary.run(["compare", "BTC", "eth", "--sort", "symbol", "--lang", "en"] + urls)
            #expect(some.status == 0, "\(some.stderr)")
            let lines = some.stdout.split(separator: "\n")
            #expect(lines.count == 3 && lines[0].contains("Upbit") && lines[0].contains("Gap"), "\(some.stdout)")
            #expect(lines[1].hasPrefix("BTC") && lines[2].hasPrefix("ETH"))
        }
    }
}
