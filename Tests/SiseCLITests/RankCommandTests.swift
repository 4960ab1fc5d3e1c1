import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise rank` and `sise global` against the simulator's CoinGecko (and its Upbit for Korean
/// names): the documented JSON keys, fractions, paging, the table, and usage errors.
@Suite struct RankCommandTests {
    static let keys: Set<String> = [
        "rank", "id", "symbol", "name", "koreanName", "price", "changeRate1h", "changeRate24h", "changeRate7d",
        "marketCap", "volume24h", "currency",
    ]

    @Test func rankJSONTableAndPages() async throws {
        try await withSimulator { simulator in
            let urls = ["--upbit-url", simulator.baseURL.absoluteString, "--coingecko-url", simulator.baseURL.absoluteString + "/api/v3"]
            let result = try await SiseBinary.run(["rank", "--json", "--per-page", "30"] + urls)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(rows.count == 30 && rows.allSatisfy { Self.keys.isSubset(of: Set($0.keys)) })
            #expect(rows[0]["id"] as? String == "bitcoin" && rows[0]["koreanName"] as? String == "비트코인" && rows[0]["currency"] as? String == "krw")
            #expect(rows.compactMap { $0["changeRate7d"] as? Double }.allSatisfy { abs($0) < 1 }, "fractions")
            #expect(rows.map { $0["rank"] as? Int } == Array(1...30))
            let second = try await SiseBinary.run(["rank", "--json", "--page", "2", "--per-page", "30", "--currency", "usd"] + urls)
            let more = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [[String: Any]])
            #expect(more.first?["rank"] as? Int == 31 && more.first?["currency"] as? String == "usd")
            let table = try await SiseBinary.run(["rank", "--per-page", "5", "--no-color"] + urls)
            #expect(table.status == 0 && table.stdout.contains("비트코인 BTC") && table.stdout.contains("시가총액") && table.stdout.contains("조"))
            let bad = try await SiseBinary.run(["rank", "--per-page", "300"] + urls)
            #expect(bad.status == 2 && bad.stderr.contains("--per-page"))
        }
    }

    @Test func globalJSONAndLines() async throws {
        try await withSimulator { simulator in
            let url = ["--coingecko-url", simulator.baseURL.absoluteString + "/api/v3"]
            let result = try await SiseBinary.run(["global", "--json"] + url)
            #expect(result.status == 0, "\(result.stderr)")
            let body = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(
                Set(["totalMarketCap", "totalVolume24h", "btcDominance", "ethDominance", "marketCapChange24h", "currency"]).isSubset(
                    of: Set(body.keys)
                )
            )
            let lines = try await SiseBinary.run(["global", "--lang", "en", "--currency", "usd", "--no-color"] + url)
            #expect(lines.stdout.contains("BTC dominance") && lines.stdout.contains("$"))
        }
    }
}
