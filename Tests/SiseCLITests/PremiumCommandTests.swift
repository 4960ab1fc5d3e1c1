import Foundation
import SiseCore
import SiseSimulator
import SiseStore
import SiseTestSupport
import Testing

/// `sise premium` and `sise markets --sort premium` against the simulator's Upbit and Binance.
@Suite struct PremiumCommandTests {
    static let keys: Set<String> = [
        "symbol", "exchange", "krwPrice", "globalPrice", "globalSource", "fx", "fxSource", "premium", "fxUsed", "fxFallback",
    ]

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

    /// `sise premium USDT`: 테더 김프 on every exchange against the official rate, as a table and as
    /// `GET /api/premium/usdt`'s JSON; with other symbols it is a usage error.
    @Test func tetherPremiumOnEveryExchange() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let urls = [
                "--upbit-url", base, "--bithumb-url", base + "/bithumb", "--korbit-url", base, "--coinone-url", base + "/coinone",
                "--binance-url", base + "/binance", "--dunamu-url", base + "/dunamu",
            ]
            let result = try await SiseBinary.run(["premium", "usdt", "--json"] + urls)
            #expect(result.status == 0, "\(result.stderr)")
            let table = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let official = try #require(table["official"] as? [String: Any])
            #expect(official["source"] as? String == "dunamu")
            let rows = try #require(table["rows"] as? [[String: Any]])
            #expect(rows.compactMap { $0["exchange"] as? String } == ["upbit", "korbit", "bithumb", "coinone"])
            let upbit = try #require(rows.first)
            let rate = try #require(official["rate"] as? Double)
            let price = try #require(upbit["usdtPrice"] as? Double)
            #expect(abs((upbit["premium"] as? Double ?? 0) - (price / rate - 1)) < 1e-12)
            let text = try await SiseBinary.run(["premium", "USDT"] + urls)
            #expect(text.status == 0 && text.stdout.contains("테더 김프") && text.stdout.contains("Bithumb") && text.stdout.contains("하나은행 고시"))
            // The bank down and no other official source: no premium, and why, never USDT against itself.
            try await SimAdmin.setFX(simulator, #"{"dunamuDown":true}"#)
            let down = try await SiseBinary.run(["premium", "USDT", "--json"] + urls)
            let downTable = try #require(try JSONSerialization.jsonObject(with: Data(down.stdout.utf8)) as? [String: Any])
            #expect(
                down.status == 0 && downTable["official"] is NSNull
                    && (downTable["rows"] as? [[String: Any]])?.allSatisfy { $0["premium"] is NSNull } == true
            )
            #expect(down.stderr.contains("테더 김프를 계산할 수 없습니다"), "\(down.stderr)")
            let mixed = try await SiseBinary.run(["premium", "BTC", "USDT"] + urls)
            #expect(mixed.status == 2 && mixed.stderr.contains("sise premium USDT"))
        }
    }

    /// `sise premium --matrix`: four exchanges × three venues read once, as the API's table; one
    /// venue on request, sorted by its premium; OKX's other coin under ADA a doubt; bad flags usage.
    @Test func theMatrixOnce() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let urls = [
                "--upbit-url", base, "--bithumb-url", base + "/bithumb", "--korbit-url", base, "--coinone-url", base + "/coinone",
                "--binance-url", base + "/binance", "--okx-url", base + "/okx", "--bybit-url", base + "/bybit", "--dunamu-url", base + "/dunamu",
                "--coingecko-url", base + "/api/v3",
            ]
            let result = try await SiseBinary.run(["premium", "--matrix", "--json", "--fx", "dunamu", "BTC", "ADA"] + urls)
            #expect(result.status == 0, "\(result.stderr)")
            let table = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect((table["fx"] as? [String: Any])?["source"] as? String == "dunamu")
            let rows = try #require(table["rows"] as? [[String: Any]])
            #expect(Set(rows.compactMap { $0["symbol"] as? String }) == ["BTC", "ADA"])
            let btc = try #require(rows.first { $0["symbol"] as? String == "BTC" }?["cells"] as? [String: [String: [String: Any]]])
            for venue in ["binance", "okx", "bybit"] {
                #expect(btc["upbit"]?[venue]?["state"] as? String == "live", "\(venue): \(btc["upbit"]?[venue] ?? [:])")
            }
            let ada = try #require(rows.first { $0["symbol"] as? String == "ADA" }?["cells"] as? [String: [String: [String: Any]]])
            #expect(ada["upbit"]?["okx"]?["state"] as? String == "doubt")

            let okx = try await SiseBinary.run(["premium", "--matrix", "--venue", "okx", "--sort", "premium", "--limit", "5", "--lang", "en"] + urls)
            #expect(okx.status == 0, "\(okx.stderr)")
            #expect(okx.stdout.contains("Premium matrix") && okx.stdout.contains("OKX") && !okx.stdout.contains("Bybit"))
            let lines = okx.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().count
            #expect(lines == 9, "title, blank, venue, header, five coins:\n\(okx.stdout)")

            try await SimAdmin.post(simulator, "/_sim/bybit", #"{"errorCode":10001}"#)
            let failing = try await SiseBinary.run(["premium", "--matrix", "--json", "BTC"] + urls)
            let failed = try #require(try JSONSerialization.jsonObject(with: Data(failing.stdout.utf8)) as? [String: Any])
            let bybit = try #require((failed["venues"] as? [[String: Any]])?.first { $0["id"] as? String == "bybit" })
            #expect(failing.status == 0 && bybit["state"] as? String == "failing" && failing.stderr.contains("bybit"))
            let cell = ((failed["rows"] as? [[String: Any]])?.first?["cells"] as? [String: [String: [String: Any]]])?["upbit"]?["bybit"]
            // Issue 83.6: a venue that could not be read is `unavailable` (`missing` means "not listed
            // there"), and the answer itself says why, not only stderr.
            #expect(cell?["premium"] is NSNull && cell?["state"] as? String == "unavailable", "a venue's error is no made-up premium: \(cell ?? [:])")
            #expect((bybit["problem"] as? String)?.isEmpty == false, "\(bybit)")

            for bad in [["--venue", "kraken"], ["--sort", "gap"], ["--limit", "0"], ["--venue", "okx"]] {
                let refused = try await SiseBinary.run(["premium"] + (bad == ["--venue", "okx"] ? bad : ["--matrix"] + bad) + urls)
                #expect(refused.status == 2, "\(bad): \(refused.stderr)")
            }
        }
    }

    /// `sise premium SYMBOL --history RANGE`: the points `sise serve` recorded, from the store the
    /// command is pointed at (`--data-dir`, `--database`), as JSON or a line per point.
    @Test func theHistoryFromTheStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-history-\(UUID().uuidString)")
        let database = try AppDatabase.open(directory: directory)
        let store = PremiumHistoryStore(database: database)
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        let okx = PremiumSeries(exchange: .bithumb, symbol: "ETH", venue: .okx)
        for minute in 1...2 { try await store.record(minute: now - Int64(minute) * 60_000, [okx: 0.015, .tether(.bithumb): -0.004]) }
        await database.close()
        let json = try await SiseBinary.run([
            "premium", "ETH", "--history", "6h", "--venue", "okx", "--exchange", "bithumb", "--json", "--data-dir", directory.path,
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(answer["series"] as? String == "bithumb:ETH:okx" && answer["resolution"] as? String == "1m")
        #expect((answer["points"] as? [[Double]])?.map { $0[1] } == [0.015, 0.015])
        let tether = try await SiseBinary.run(["premium", "USDT", "--history", "48h", "--exchange", "bithumb", "--data-dir", directory.path])
        #expect(tether.status == 0 && tether.stdout.contains("bithumb:USDT:official") && tether.stdout.contains("-0.40%"), "\(tether.stdout)")
        let nothing = try await SiseBinary.run(["premium", "BTC", "--history", "7d", "--data-dir", directory.path])
        #expect(nothing.status == 0 && nothing.stdout.contains("기록이 없습니다"))
        for bad in [["BTC", "--history", "3y"], ["BTC", "ETH", "--history", "7d"], ["BTC", "--history", "7d", "--matrix"]] {
            let refused = try await SiseBinary.run(["premium"] + bad + ["--data-dir", directory.path])
            #expect(refused.status == 2, "\(bad): \(refused.stderr)")
        }
    }
}
