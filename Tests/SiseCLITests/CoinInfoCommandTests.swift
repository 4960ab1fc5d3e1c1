import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise trending` and `sise search` against the simulator's CoinGecko.
@Suite struct CoinInfoCommandTests {
    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func trendingJSONHasTheDocumentedShape() async throws {
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString + "/api/v3"
            let result = try await SiseBinary.run(["trending", "--json", "--coingecko-url", url])
            #expect(result.status == 0, "\(result.stderr)")
            let body = try object(result.stdout)
            #expect(Set(body.keys) == ["coins", "nfts"])
            let coins = try #require(body["coins"] as? [[String: Any]])
            let nfts = try #require(body["nfts"] as? [[String: Any]])
            #expect(coins.count == 15 && nfts.count == 7)
            #expect(
                coins.allSatisfy { Set($0.keys) == ["id", "name", "symbol", "rank", "marketCapRank", "thumb", "priceUSD", "priceKRW", "change24h"] }
            )
            #expect(coins.map { $0["rank"] as? Int } == Array(1...15))
            #expect(coins.allSatisfy { ($0["priceKRW"] as? Double ?? 0) > 0 })
            #expect(nfts.allSatisfy { Set($0.keys) == ["id", "name", "symbol", "thumb", "floorPrice", "floorPriceCurrency", "floorPriceChange24h"] })
            // Two upstream calls: trending and the exchange rate.
            let stats = try await SimAdmin.stats(simulator)
            #expect(stats["coingecko"] == ["/search/trending": 1, "/exchange_rates": 1])
        }
    }

    @Test func searchJSONAndTheRateLimit() async throws {
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString + "/api/v3"
            let result = try await SiseBinary.run(["search", "bit", "--json"], environment: ["SISE_COINGECKO_URL": url])
            #expect(result.status == 0, "\(result.stderr)")
            let body = try object(result.stdout)
            #expect(Set(body.keys) == ["coins", "nfts", "exchanges"])
            let coins = try #require(body["coins"] as? [[String: Any]])
            #expect(coins.first?["id"] as? String == "bitcoin")
            #expect(coins.first?["marketCapRank"] as? Int == 1)
            let exchanges = try #require(body["exchanges"] as? [[String: Any]])
            #expect(exchanges.allSatisfy { $0["symbol"] == nil && $0["marketCapRank"] == nil })

            try await SimAdmin.setFaults(simulator, #"{"geckoPerMinute":0}"#)
            let limited = try await SiseBinary.run(["search", "bit", "--lang", "en", "--coingecko-url", url])
            #expect(limited.status == 3)
            #expect(limited.stderr.contains("429"))
            #expect(try await SiseBinary.run(["search", "  ", "--coingecko-url", url]).status == 2)
            #expect(try await SiseBinary.run(["trending", "--coingecko-plan", "gold"]).status == 2)
        }
    }
}

extension CoinInfoCommandTests {
    /// A Korean query is answered by the Korean exchanges' names, as the page's search is; CoinGecko is not asked.
    @Test(arguments: ["비트", "ㅂㅌ"])
    func aKoreanSearchFindsTheExchangesNames(_ query: String) async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let urls = [
                "--upbit-url", base, "--korbit-url", base, "--bithumb-url", base + "/bithumb", "--coinone-url", base + "/coinone",
                "--coingecko-url", base + "/api/v3",
            ]
            let result = try await SiseBinary.run(["search", query, "--json"] + urls)
            #expect(result.status == 0, "\(result.stderr)")
            let coins = try #require(try object(result.stdout)["coins"] as? [[String: Any]])
            #expect(coins.contains { $0["name"] as? String == "비트코인" && $0["id"] as? String == "KRW-BTC" }, "\(coins.prefix(5))")
            #expect(coins.allSatisfy { ($0["name"] as? String)?.isEmpty == false })
            let table = try await SiseBinary.run(["search", query] + urls)
            #expect(table.status == 0 && table.stdout.contains("비트코인"), "\(table.stdout)")
            let stats = try await SimAdmin.stats(simulator)
            #expect(stats["coingecko"] == nil || stats["coingecko"]?.isEmpty == true, "CoinGecko was asked: \(stats)")
        }
    }
}

@Suite struct CoinCommandTests {
    @Test func upbitMarketsAndCoinGeckoIDs() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let upbit = try await SiseBinary.run(["coin", "BTC", "--range", "1y", "--json", "--upbit-url", base, "--coingecko-url", base + "/api/v3"])
            #expect(upbit.status == 0, "\(upbit.stderr)")
            let market = try #require(try JSONSerialization.jsonObject(with: Data(upbit.stdout.utf8)) as? [String: Any])
            #expect(market["source"] as? String == "upbit" && market["id"] as? String == "KRW-BTC")
            #expect((market["points"] as? [[Double]])?.count == 52)
            #expect(market["marketCapRank"] as? Int == 1)
            let gecko = try await SiseBinary.run(["coin", "ethereum", "--json", "--coingecko-url", base + "/api/v3"])
            #expect(gecko.status == 0, "\(gecko.stderr)")
            let coin = try #require(try JSONSerialization.jsonObject(with: Data(gecko.stdout.utf8)) as? [String: Any])
            #expect(coin["source"] as? String == "coingecko" && coin["symbol"] as? String == "ETH")
            let chart = try await SiseBinary.run(
                ["coin", "KRW-ETH", "--range", "30d", "--upbit-url", base],
                environment: ["SISE_FORCE_CHART": "1", "SISE_COINGECKO_URL": base + "/api/v3"]
            )
            #expect(chart.stdout.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "a braille chart")
            let missing = try await SiseBinary.run(["coin", "no-such-coin", "--coingecko-url", base + "/api/v3"])
            #expect(missing.status == 3)
            #expect(try await SiseBinary.run(["coin", "BTC", "--range", "5y"]).status == 2)
        }
    }

    /// `sise coin` keeps its CoinGecko cache in the store every command uses — the one
    /// `--database` or `SISE_DATABASE_URL` names — not a private file in the data directory: a
    /// second look-up from another home costs no call.
    @Test func theCacheIsTheStoreTheSettingsName() async throws {
        try await withSimulator { simulator in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sise-coin-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = folder.appendingPathComponent("shared").path
            let gecko = simulator.baseURL.absoluteString + "/api/v3"
            let first = try await SiseBinary.run(
                ["coin", "ethereum", "--json", "--coingecko-url", gecko],
                environment: ["SISE_DATABASE_URL": "sqlite:" + store]
            )
            #expect(first.status == 0, "\(first.stderr)")
            #expect(FileManager.default.fileExists(atPath: store + "/sise.sqlite"), "the store SISE_DATABASE_URL names was not used")
            let calls = try await SimAdmin.stats(simulator)["coingecko"]?.values.reduce(0, +) ?? 0
            let second = try await SiseBinary.run(["coin", "ethereum", "--json", "--coingecko-url", gecko, "--database", "sqlite:" + store])
            #expect(second.status == 0, "\(second.stderr)")
            #expect(try await SimAdmin.stats(simulator)["coingecko"]?.values.reduce(0, +) ?? 0 == calls, "the second look-up called CoinGecko")
            #expect(second.stdout == first.stdout)
        }
    }
}
