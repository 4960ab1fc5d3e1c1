import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise premium` and `sise markets --sort premium` against the simulator's Upbit and Binance.
@Suite struct PremiumCommandTests {
    static let keys: Set<String> = ["symbol", "exchange", "krwPrice", "globalPrice", "globalSource", "fx", "fxSource", "premium"]

    @Test func premiumRowsAreExactlyTheirKeys() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let urls = ["--upbit-url", base, "--binance-url", base + "/binance", "--dunamu-url", base + "/dunamu"]
            let result = try await SiseBinary.run(["premium", "BTC", "eth", "--json"] + urls)
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(rows.count == 2 && rows.allSatisfy { Set($0.keys) == Self.keys })
            let btc = try #require(rows.first { $0["symbol"] as? String == "BTC" })
            let premium = try #require(btc["premium"] as? Double)
            #expect(premium > 0.004 && premium < 0.031, "the simulation's +0.5 … +3 % over Upbit's USDT")
            let bank = try await SiseBinary.run(["premium", "BTC", "--json", "--fx", "dunamu"] + urls)
            let bankRow = try #require((try JSONSerialization.jsonObject(with: Data(bank.stdout.utf8)) as? [[String: Any]])?.first)
            #expect(bankRow["fxSource"] as? String == "dunamu" && (bankRow["premium"] as? Double ?? 0) > premium, "the bank rate is below USDT's")
            let down = try await SiseBinary.run(["premium", "BTC", "--json", "--upbit-url", base, "--binance-url", "http://127.0.0.1:1/binance"])
            let downRow = try #require((try JSONSerialization.jsonObject(with: Data(down.stdout.utf8)) as? [[String: Any]])?.first)
            #expect(down.status == 0 && downRow["premium"] is NSNull && down.stderr.contains("binance"), "null and a reason, never a made-up number")
            let unknown = try await SiseBinary.run(["premium", "NOPE"] + urls)
            #expect(unknown.status == 2)
            let bad = try await SiseBinary.run(["premium", "--fx", "bank"] + urls)
            #expect(bad.status == 2 && bad.stderr.contains("--fx"))
        }
    }

    @Test func marketsSortByPremium() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let result = try await SiseBinary.run([
                "markets", "--sort", "premium", "--json", "--limit", "20", "--upbit-url", base,
                "--binance-url", base + "/binance",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            let premiums = rows.compactMap { $0["premium"] as? Double }
            #expect(premiums.count == 20 && premiums == premiums.sorted(by: >))
        }
    }
}
