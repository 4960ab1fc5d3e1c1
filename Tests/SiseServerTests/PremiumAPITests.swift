import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseCore
import SiseEngine
import SiseServer
import SiseStore
import SiseTestSupport
import Testing

/// The premium on the API over the demo simulator: board rows gain `premium` and
/// `display.premium`, `sort=premium` orders them (unknown last), `/api/premium` has the table,
/// the market's 김프 and its sources, and `/api/compare` each venue's premium.
@Suite struct PremiumAPITests {
    @Test func rowsSortTableAndCompare() async throws {
        try await ServerHarness.run { client in
            try await expectEventually(timeout: .seconds(15), "the premium's inputs arrive") {
                let body = json(try await client.execute(uri: "/api/premium?symbols=BTC", method: .get)) as? [String: Any]
                return ((body?["rows"] as? [[String: Any]])?.first?["premium"] as? Double) != nil
            }
            let table = try #require(json(try await client.execute(uri: "/api/premium?symbols=BTC,ETH", method: .get)) as? [String: Any])
            let rows = try #require(table["rows"] as? [[String: Any]])
            #expect(
                rows.count == 2
                    && rows.allSatisfy {
                        Set($0.keys) == [
                            "symbol", "exchange", "krwPrice", "globalPrice", "globalSource", "fx", "fxSource", "premium", "fxUsed", "fxFallback",
                        ]
                    }
            )
            let btc = try #require(rows.first { $0["symbol"] as? String == "BTC" })
            let premium = try #require(btc["premium"] as? Double)
            let krw = try #require(btc["krwPrice"] as? Double)
            let global = try #require(btc["globalPrice"] as? Double)
            let fx = try #require(btc["fx"] as? Double)
            #expect(abs(premium - (krw / (global * fx) - 1)) < 1e-9, "the one formula")
            #expect(btc["globalSource"] as? String == "binance" && btc["fxSource"] as? String == "upbit-usdt")
            #expect(table["marketPremium"] is Double && ((table["display"] as? [String: String])?["source"] ?? "").contains("Upbit USDT"))
            let sorted = try #require(json(try await client.execute(uri: "/api/markets?sort=premium&order=desc", method: .get)) as? [[String: Any]])
            let known = sorted.compactMap { $0["premium"] as? Double }
            #expect(known.count > 100 && known == known.sorted(by: >))
            let firstUnknown = sorted.firstIndex { $0["premium"] is NSNull } ?? sorted.count
            #expect(sorted[firstUnknown...].allSatisfy { $0["premium"] is NSNull }, "unknown premiums last")
            #expect((sorted.first?["display"] as? [String: String])?["premium"]?.hasSuffix("%") == true)
            let btcMarket = try #require(json(try await client.execute(uri: "/api/markets?quote=BTC", method: .get)) as? [[String: Any]])
            #expect(btcMarket.allSatisfy { $0["premium"] is NSNull }, "only KRW markets have one")
            #expect(try await client.execute(uri: "/api/premium?symbols=B%3CTC", method: .get).status == .badRequest)
            let status = try #require(json(try await client.execute(uri: "/api/status", method: .get)) as? [String: Any])
            #expect((status["premium"] as? [String: String])?["fx"] == "upbit-usdt")
        }
    }

    /// 테더 김프 on the API: every exchange's KRW-USDT over the official rate (the bank's, never
    /// USDT itself), an exchange without KRW-USDT saying so, one exchange on request, and the
    /// board's own row inside `/api/premium`.
    @Test func tetherPremiumOfEveryExchange() async throws {
        try await ServerHarness.run { client in
            var table: [String: Any] = [:]
            try await expectEventually(timeout: .seconds(15), "the official rate arrives") {
                table = (json(try await client.execute(uri: "/api/premium/usdt", method: .get)) as? [String: Any]) ?? [:]
                return (table["official"] as? [String: Any])?["rate"] is Double
            }
            let official = try #require(table["official"] as? [String: Any])
            #expect(official["source"] as? String == "dunamu" && official["fallback"] as? Bool == false)
            let rate = try #require(official["rate"] as? Double)
            let rows = try #require(table["rows"] as? [[String: Any]])
            #expect(rows.compactMap { $0["exchange"] as? String } == ["upbit", "korbit", "bithumb", "coinone"], "the switch's order")
            for row in rows {
                for key in ["exchange", "usdtPrice", "at", "premium", "state", "display"] { #expect(row[key] != nil, "\(key)") }
                if let price = row["usdtPrice"] as? Double, let premium = row["premium"] as? Double {
                    #expect(abs(premium - (price / rate - 1)) < 1e-12, "USDT over the official dollar")
                    #expect(row["state"] as? String == "live")
                } else {
                    #expect(row["premium"] is NSNull && ["unlisted", "unavailable", "stale"].contains(row["state"] as? String ?? ""))
                }
            }
            #expect(rows.filter { $0["state"] as? String == "live" }.count >= 3)
            let one = try #require(json(try await client.execute(uri: "/api/premium/usdt?exchange=bithumb&lang=ko", method: .get)) as? [String: Any])
            #expect((one["rows"] as? [[String: Any]])?.compactMap { $0["exchange"] as? String } == ["bithumb"])
            #expect((one["display"] as? [String: String])?["title"] == "테더 김프")
            #expect(try await client.execute(uri: "/api/premium/usdt?exchange=nope", method: .get).status == .badRequest)
            let board = try #require(json(try await client.execute(uri: "/api/premium?symbols=BTC&lang=ko", method: .get)) as? [String: Any])
            #expect((board["tether"] as? [String: Any])?["exchange"] as? String == "upbit")
            let words = (board["display"] as? [String: String])?["tether"] ?? ""
            #expect(words.hasPrefix("테더 김프 "), "\(words)")
        }
    }
}

/// The premium matrix on the API over the simulator: four Korean exchanges × Binance, OKX and
/// Bybit, each cell the one formula over its legs, the coin OKX lists under another's ticker
/// excluded as a doubt, venues idle until someone looks, and bad parameters refused by name.
@Suite struct PremiumMatrixAPITests {
    @Test func everyExchangeAgainstEveryVenue() async throws {
        try await ServerHarness.run { client in
            var table: [String: Any] = [:]
            try await expectEventually(timeout: .seconds(20), "every venue answers") {
                table = (json(try await client.execute(uri: "/api/premium/matrix?symbols=BTC,ADA,ETH", method: .get)) as? [String: Any]) ?? [:]
                let btc = (table["rows"] as? [[String: Any]])?.first { $0["symbol"] as? String == "BTC" }
                let cells = btc?["cells"] as? [String: [String: [String: Any]]]
                return GlobalVenue.allCases.allSatisfy { cells?["upbit"]?[$0.rawValue]?["state"] as? String == "live" }
            }
            let fx = try #require(table["fx"] as? [String: Any])
            let rate = try #require(fx["rate"] as? Double)
            #expect((table["venues"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["binance", "okx", "bybit"])
            #expect((table["exchanges"] as? [String]) == ["upbit", "korbit", "bithumb", "coinone"])
            let rows = try #require(table["rows"] as? [[String: Any]])
            let btc = try #require(rows.first { $0["symbol"] as? String == "BTC" })
            let prices = try #require(btc["krwPrices"] as? [String: Any])
            let cells = try #require(btc["cells"] as? [String: [String: [String: Any]]])
            for exchange in ["upbit", "bithumb"] {
                let krw = try #require(prices[exchange] as? Double)
                for venue in GlobalVenue.allCases {
                    let cell = try #require(cells[exchange]?[venue.rawValue])
                    if let premium = cell["premium"] as? Double {
                        #expect(premium > -0.05 && premium < 0.06, "\(exchange) × \(venue): \(premium)")
                        #expect((cell["display"] as? String)?.hasSuffix("%") == true)
                        _ = krw / rate
                    } else {
                        #expect(["stale", "missing"].contains(cell["state"] as? String ?? ""), "\(cell)")
                    }
                }
            }
            // OKX lists another coin as ADA: never shown as a premium.
            let ada = try #require(rows.first { $0["symbol"] as? String == "ADA" })
            let adaCells = try #require(ada["cells"] as? [String: [String: [String: Any]]])
            #expect(adaCells["upbit"]?["okx"]?["state"] as? String == "doubt" && adaCells["upbit"]?["okx"]?["premium"] is NSNull)
            #expect(adaCells["upbit"]?["okx"]?["display"] as? String == "?")

            // One venue, one exchange, sorted by its premium, highest first.
            let one = try #require(
                json(try await client.execute(uri: "/api/premium/matrix?venue=okx&exchange=bithumb&sort=premium&limit=30", method: .get))
                    as? [String: Any]
            )
            let sorted = try #require(one["rows"] as? [[String: Any]])
            let figures = sorted.compactMap { (($0["cells"] as? [String: [String: [String: Any]]])?["bithumb"]?["okx"]?["premium"]) as? Double }
            #expect(sorted.count == 30 && figures.count > 10 && figures == figures.sorted(by: >))
            #expect(sorted.allSatisfy { (($0["cells"] as? [String: Any])?.keys.sorted()) == ["bithumb"] })
            for (bad, words) in [
                ("venue=kraken", "binance, okx, bybit"), ("venue=okx,kraken", "해외 거래소는"), ("exchange=nope", "거래소는"), ("sort=gap", "premium, value"),
                ("order=up", "asc, desc"), ("limit=0", "1~500"), ("limit=501", "1~500"), ("symbols=B%3CTC", "심볼 목록은"),
            ] {
                let refused = try await client.execute(uri: "/api/premium/matrix?" + bad, method: .get)
                #expect(refused.status == .badRequest, "\(bad)")
                let message = ((json(refused) as? [String: Any])?["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains(words), "\(bad): \(message)")
            }
        }
    }
}

/// The premium's history on the API, from the store a recorder (here: the test) fills: the finest
/// resolution that keeps the range, 테더 김프 under `symbol=USDT`, CSV, and bad ranges refused.
@Suite struct PremiumHistoryAPITests {
    @Test func aPremiumOverTime() async throws {
        let directory = ServerHarness.temporaryDirectory()
        try await ServerHarness.run(dataDirectory: directory) { client in
            let store = PremiumHistoryStore(database: try await ServerHarness.store(directory))
            let now = WallClock.system.now
            let okx = PremiumSeries(exchange: .upbit, symbol: "BTC", venue: .okx)
            for minute in 1...3 {
                try await store.record(minute: now - Int64(minute) * 60_000, [okx: 0.01 * Double(minute), .tether(.upbit): 0.002])
            }
            let answer = try #require(
                json(try await client.execute(uri: "/api/premium/history?symbol=btc&venue=okx&range=6h&lang=ko", method: .get)) as? [String: Any]
            )
            #expect(answer["series"] as? String == "upbit:BTC:okx" && answer["resolution"] as? String == "1m")
            let points = try #require(answer["points"] as? [[Double]])
            #expect(points.map { $0[1] } == [0.03, 0.02, 0.01], "oldest first")
            #expect(points.map { $0[0] } == points.map { $0[0] }.sorted())
            #expect((answer["display"] as? [String: String])?["last"] == "+1.00%")
            let tether = try #require(json(try await client.execute(uri: "/api/premium/history?symbol=USDT", method: .get)) as? [String: Any])
            #expect(
                tether["venue"] is NSNull && tether["series"] as? String == "upbit:USDT:official" && (tether["points"] as? [[Double]])?.count == 3
            )
            let week = try #require(
                json(try await client.execute(uri: "/api/premium/history?symbol=BTC&venue=okx&range=7d", method: .get)) as? [String: Any]
            )
            #expect(week["resolution"] as? String == "15m" && (week["points"] as? [[Double]])?.isEmpty == false)
            // Issue 83.8: the chart has labelled axes (values as premiums, KST times) and spans the
            // week asked for: three minutes at its end are drawn there, not as a week-long line, and
            // the words say since when it was recorded.
            let hours = try #require((answer["display"] as? [String: String])?["chart"])
            #expect(hours.contains("value-axis") && hours.contains("time-axis") && hours.contains("%</text>"), "\(hours)")
            #expect(hours.contains(":") && hours.split(separator: "<text").count - 1 >= 7, "value and time labels: \(hours)")
            // (Three minutes are one or two quarter-hour points: a line, or words and no box.)
            let weekChart = try #require((week["display"] as? [String: String])?["chart"])
            let weekWords = (week["display"] as? [String: String])?["empty"] ?? ""
            if let path = weekChart.range(of: "<path d=\"M") {
                let x = Double(weekChart[path.upperBound...].prefix { $0 != " " }) ?? 0
                #expect(x > 200, "the recording's first point stands near the week's end (x = \(x) of 320)")
                #expect(weekWords.contains("KST"), "\(week)")
            } else {
                #expect(weekChart.isEmpty && !weekWords.isEmpty, "\(week)")
            }
            try await store.record(minute: now - 3_600_000, [PremiumSeries(exchange: .upbit, symbol: "XRP", venue: .binance): 0.01])
            let one = try #require(json(try await client.execute(uri: "/api/premium/history?symbol=XRP", method: .get)) as? [String: Any])
            #expect(
                (one["display"] as? [String: String])?["chart"] == "" && (one["display"] as? [String: String])?["empty"] != nil,
                "one point: words, no empty box"
            )
            let none = try #require(json(try await client.execute(uri: "/api/premium/history?symbol=ETH", method: .get)) as? [String: Any])
            #expect((none["points"] as? [[Double]])?.isEmpty == true && (none["display"] as? [String: String])?["empty"] != nil)
            // The board's bar draws 테더 김프's day (KST) beside its figure.
            let bar = try #require(json(try await client.execute(uri: "/api/premium?symbols=BTC", method: .get)) as? [String: Any])
            let chart = (bar["display"] as? [String: String])?["tetherChart"] ?? ""
            if now - 3 * 60_000 >= PremiumHistory.startOfKSTDay(now) { #expect(chart.contains("<svg"), "\(chart)") }
            let csv = try await client.execute(uri: "/api/premium/history?symbol=BTC&venue=okx&range=6h&format=csv", method: .get)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            let lines = String(buffer: csv.body).split(separator: "\n")
            #expect(lines.first == "at,kst,premium" && lines.count == 4 && lines[1].contains(" KST,"))
            for bad in ["", "symbol=B%3CTC", "symbol=BTC&range=3y", "symbol=BTC&range=week", "symbol=BTC&venue=kraken", "symbol=BTC&format=xml"] {
                #expect(try await client.execute(uri: "/api/premium/history?" + bad, method: .get).status == .badRequest, "\(bad)")
            }
        }
    }
}
