import Foundation
import SiseCore
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise markets` and `sise price`, run as a built binary against the simulator.
@Suite struct MarketsCommandTests {
    static let rowKeys: Set<String> = [
        "exchange", "market", "symbol", "koreanName", "englishName", "price", "change",
        "changeRate", "changePrice", "tradeValue24h", "warning", "cautionLevel", "cautionReasons", "premium", "display",
    ]
    static let displayKeys: Set<String> = ["price", "changeRate", "changePrice", "tradeValue", "tradeValueShort", "premium", "premiumTone"]

    func rows(_ output: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
    }

    @Test func jsonRowsHaveExactlyThePublicKeysInTradeValueOrder() async throws {
        try await withSimulator { simulator in
            let result = try await SiseBinary.run(["markets", "--json", "--upbit-url", simulator.baseURL.absoluteString])
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try rows(result.stdout)
            #expect(rows.count >= 240)
            for row in rows {
                #expect(Set(row.keys) == Self.rowKeys)
                #expect(Set((row["display"] as? [String: Any] ?? [:]).keys) == Self.displayKeys)
                #expect(["RISE", "EVEN", "FALL"].contains(row["change"] as? String ?? ""))
                #expect((row["market"] as? String)?.hasPrefix("KRW-") == true)
            }
            let values = rows.map { $0["tradeValue24h"] as! Double }
            #expect(values == values.sorted(by: >))
            let btc = try #require(rows.first { $0["market"] as? String == "KRW-BTC" })
            #expect(btc["koreanName"] as? String == "비트코인")
            #expect(((btc["display"] as? [String: Any])?["tradeValue"] as? String)?.hasSuffix("백만") == true)
        }
    }

    @Test func sortSearchLimitAndQuoteFlags() async throws {
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString
            let byChange = try rows(try await SiseBinary.run(["markets", "--json", "--sort", "change", "--order", "asc", "--upbit-url", url]).stdout)
            let rates = byChange.map { $0["changeRate"] as! Double }
            #expect(rates == rates.sorted())
            let search = try rows(try await SiseBinary.run(["markets", "--json", "--search", "ㅂㅌ", "--upbit-url", url]).stdout)
            #expect(search.contains { $0["market"] as? String == "KRW-BTC" })
            #expect(
                search.allSatisfy {
                    MarketSearch("ㅂㅌ").matches(
                        Market(
                            id: MarketID($0["market"] as! String)!,
                            koreanName: $0["koreanName"] as! String,
                            englishName: $0["englishName"] as! String
                        )
                    )
                }
            )
            let limited = try rows(
                try await SiseBinary.run(["markets", "--json", "--limit", "5", "--sort", "name", "--order", "asc", "--upbit-url", url]).stdout
            )
            #expect(limited.count == 5)
            let names = limited.map { $0["koreanName"] as! String }
            #expect(names == names.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) { $0.value < $1.value } })
            let btcMarket = try rows(try await SiseBinary.run(["markets", "--json", "--quote", "btc", "--upbit-url", url]).stdout)
            #expect(!btcMarket.isEmpty)
            #expect(btcMarket.allSatisfy { ($0["market"] as! String).hasPrefix("BTC-") })
            #expect(btcMarket.allSatisfy { (($0["display"] as! [String: Any])["price"] as! String).split(separator: ".").last?.count == 8 })
        }
    }

    @Test func tableAlignsHangulAndHasNoColourWhenPiped() async throws {
        try await withSimulator { simulator in
            let result = try await SiseBinary.run(["markets", "--limit", "20", "--upbit-url", simulator.baseURL.absoluteString])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            try #require(lines.count == 21)
            #expect(!result.stdout.contains("\u{1B}["))
            #expect(lines[0].hasPrefix(BoardText(language: .ko).title(.name)), "the core's column title")
            let widths = Set(lines.map { DisplayWidth.of($0) })
            #expect(widths.count == 1, "every line ends in the same column: \(widths)")
            // The top rows by trade value change with the simulated day (ETH outtrades BTC some hours).
            #expect(lines[1...3].contains { $0.contains("비트코인") })
        }
    }

    @Test func priceResolvesSymbolsAndCodesInOrder() async throws {
        try await withSimulator { simulator in
            let result = try await SiseBinary.run(["price", "eth", "KRW-BTC", "BTC-ETH", "--json", "--upbit-url", simulator.baseURL.absoluteString])
            #expect(result.status == 0, "\(result.stderr)")
            let rows = try rows(result.stdout)
            #expect(rows.map { $0["market"] as! String } == ["KRW-ETH", "KRW-BTC", "BTC-ETH"])
            #expect(rows.allSatisfy { Set($0.keys) == Self.rowKeys })
        }
    }

    @Test func unknownSymbolIsAUsageErrorNamingIt() async throws {
        try await withSimulator { simulator in
            let result = try await SiseBinary.run(["price", "BTC", "NOPE", "--upbit-url", simulator.baseURL.absoluteString])
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.contains("NOPE"))
            #expect(result.stderr.contains("알 수 없는 종목"))
        }
    }

    @Test func upstreamFailuresExitWith3AndOneLocalisedLine() async throws {
        let gone = try await RunningSimulator.start()
        let goneURL = gone.baseURL.absoluteString
        await gone.stop()
        let unreachable = try await SiseBinary.run(["markets", "--upbit-url", goneURL])
        #expect(unreachable.status == 3)
        #expect(unreachable.stderr.split(separator: "\n").count == 1)
        #expect(unreachable.stderr.contains("연결할 수 없습니다"))
        #expect(!unreachable.stderr.contains("Fatal") && !unreachable.stderr.contains("0x"))

        let english = try await SiseBinary.run(["markets", "--lang", "en"], environment: ["SISE_UPBIT_URL": goneURL])
        #expect(english.status == 3)
        #expect(english.stderr.contains("Cannot reach 127.0.0.1"))

        var faults = SimFaults()
        faults.errorRate = 1
        faults.errorStatus = 500
        try await withSimulator(SimulatorConfiguration(faults: faults)) { simulator in
            let result = try await SiseBinary.run(["markets", "--upbit-url", simulator.baseURL.absoluteString])
            #expect(result.status == 3)
            #expect(result.stderr.contains("500"))
        }
        faults = SimFaults()
        faults.malformedRate = 1
        try await withSimulator(SimulatorConfiguration(faults: faults)) { simulator in
            let result = try await SiseBinary.run(["price", "BTC", "--lang", "en", "--upbit-url", simulator.baseURL.absoluteString])
            #expect(result.status == 3)
            #expect(result.stderr.contains("Could not read"))
        }
    }

    @Test(arguments: [
        ["markets", "--sort", "volume"], ["markets", "--quote", "EUR"], ["markets", "--lang", "jp"],
        ["markets", "--upbit-url", "ftp://x"], ["price"], ["nonsense"],
    ])
    func badUsageExitsWith2(_ arguments: [String]) async throws {
        let result = try await SiseBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}

/// `--exchange` on the one-shot commands: the same rows from Korbit and Bithumb, with their
/// own base URLs (flags like `--upbit-url`), and the quotes each has.
@Suite struct ExchangeOptionTests {
    @Test func priceAndMarketsOnKorbitAndBithumb() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let korbit = try await SiseBinary.run([
                "price", "BTC", "ETH", "--exchange", "korbit", "--korbit-url", base, "--upbit-url", base, "--json",
            ])
            #expect(korbit.status == 0, "\(korbit.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(korbit.stdout.utf8)) as? [[String: Any]])
            #expect(rows.map { $0["market"] as? String } == ["KRW-BTC", "KRW-ETH"])
            #expect(rows.allSatisfy { $0["exchange"] as? String == "korbit" })
            #expect(rows.first?["koreanName"] as? String == "비트코인", "names borrowed from Upbit")
            let bithumb = try await SiseBinary.run([
                "markets", "--exchange", "bithumb", "--quote", "BTC", "--json", "--bithumb-url", base + "/bithumb",
            ])
            #expect(bithumb.status == 0, "\(bithumb.stderr)")
            let btc = try #require(try JSONSerialization.jsonObject(with: Data(bithumb.stdout.utf8)) as? [[String: Any]])
            #expect(!btc.isEmpty && btc.allSatisfy { $0["exchange"] as? String == "bithumb" })
            let coin = try await SiseBinary.run([
                "coin", "KRW-BTC", "--exchange", "korbit", "--korbit-url", base, "--upbit-url", base,
                "--coingecko-url", base + "/api/v3", "--json",
            ])
            #expect(coin.status == 0, "\(coin.stderr)")
            let detail = try #require(try JSONSerialization.jsonObject(with: Data(coin.stdout.utf8)) as? [String: Any])
            #expect(detail["source"] as? String == "korbit" && (detail["points"] as? [Any])?.isEmpty == false)
            let env = try await SiseBinary.run(
                ["price", "BTC", "--exchange", "bithumb", "--json"],
                environment: ["SISE_BITHUMB_URL": base + "/bithumb"]
            )
            #expect(env.status == 0 && env.stdout.contains("\"bithumb\""), "\(env.stderr)")
        }
    }

    @Test func aQuoteTheExchangeLacksOrAnUnknownExchangeIsUsage() async throws {
        let usdt = try await SiseBinary.run(["markets", "--exchange", "korbit", "--quote", "BTC", "--lang", "en"])
        #expect(usdt.status == 2 && usdt.stderr.contains("Korbit has no BTC market (it has KRW)"), "\(usdt.stderr)")
        let korean = try await SiseBinary.run(["markets", "--exchange", "korbit", "--quote", "BTC"])
        #expect(korean.status == 2 && korean.stderr.contains("Korbit에는 BTC 마켓이 없습니다"), "the default language: \(korean.stderr)")
        let unknown = try await SiseBinary.run(["price", "BTC", "--exchange", "binance"])
        #expect(unknown.status == 2 && unknown.stderr.contains("--exchange must be"), "\(unknown.stderr)")
    }
}
