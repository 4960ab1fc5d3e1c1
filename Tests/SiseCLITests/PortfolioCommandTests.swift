import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise portfolio` and `sise alerts` as a script uses them: the local owner's data in the data
/// directory, valued and fired on the simulator's live prices.
@Suite struct PortfolioCommandTests {
    func object(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    @Test func addShowExportImportAndRefusals() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-cli-portfolio-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString
            let added = try await SiseBinary.run([
                "portfolio", "add", "buy", "KRW-BTC", "0.01", "--price", "100000000", "--fee", "500", "--data-dir", data,
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let sell = try await SiseBinary.run(["portfolio", "add", "sell", "BTC", "1", "--price", "1", "--data-dir", data, "--lang", "en"])
            #expect(sell.status == 2, "selling more than is held is a usage error")
            #expect(sell.stderr.contains("KRW-BTC"))
            let bad = try await SiseBinary.run(["portfolio", "add", "buy", "KRW-BTC", "1e3", "--price", "1", "--data-dir", data])
            #expect(bad.status == 2)

            let shown = try await SiseBinary.run(["portfolio", "--json", "--upbit-url", url, "--data-dir", data])
            #expect(shown.status == 0, "\(shown.stderr)")
            let report = try #require(object(shown.stdout))
            let row = try #require((report["positions"] as? [[String: Any]])?.first)
            #expect(row["quantity"] as? String == "0.01" && row["averagePrice"] as? String == "100050000" && row["stale"] as? Bool == false)
            #expect(row["price"] is String && row["unrealizedPnl"] is String)
            let table = try await SiseBinary.run(["portfolio", "--upbit-url", url, "--data-dir", data, "--lang", "en"])
            #expect(table.stdout.contains("Avg. price") && table.stdout.contains("KRW-BTC") && table.stdout.contains("Realized P&L"))

            let exported = try await SiseBinary.run(["portfolio", "export", "--data-dir", data])
            #expect(exported.stdout.hasPrefix("\u{FEFF}type,exchange,market,quantity,price,fee,at,note"), "Excel's mark first, by default")
            let plain = try await SiseBinary.run(["portfolio", "export", "--no-bom", "--data-dir", data])
            #expect(plain.stdout.hasPrefix("type,exchange,market,quantity,price,fee,at,note") && plain.stdout.contains("+09:00"), "\(plain.stdout)")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("sise-export-\(UUID().uuidString).csv")
            try exported.stdout.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let imported = try await SiseBinary.run(["portfolio", "import", file.path, "--data-dir", data, "--lang", "en"])
            // Its own export imported back: the trade is there already, so it is held once.
            #expect(imported.status == 0 && imported.stdout.contains("imported 0 transactions (1 already there, skipped)"), "\(imported.stdout)")
            let json = try await SiseBinary.run(["portfolio", "export", "--format", "json", "--data-dir", data])
            #expect((object(json.stdout)?["transactions"] as? [Any])?.count == 1)

            // The sample file in the repository imports as documented.
            let sample = RealFixtures.packageRoot.appendingPathComponent("docs/portfolio-sample.csv").path
            let fresh = data + "-sample"
            defer { try? FileManager.default.removeItem(atPath: fresh) }
            let sampled = try await SiseBinary.run(["portfolio", "import", sample, "--data-dir", fresh])
            #expect(sampled.status == 0, "\(sampled.stderr)")
        }
    }

    @Test func alertsAddListAndFireIntoWatch() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-cli-alerts-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString
            let id = try await SiseBinary.run(["alerts", "add", "KRW-BTC", "above", "1", "--data-dir", data])
            #expect(id.status == 0, "\(id.stderr)")
            let far = try await SiseBinary.run(["alerts", "add", "BTC", "below", "1", "--data-dir", data])
            #expect(far.status == 0)
            #expect(try await SiseBinary.run(["alerts", "add", "KRW-BTC", "sideways", "1", "--data-dir", data]).status == 2)
            let listed = try await SiseBinary.run(["alerts", "list", "--json", "--data-dir", data])
            #expect((object(listed.stdout)?["alerts"] as? [[String: Any]])?.count == 2)

            // The rule already true fires once, at its first evaluation; the other never.
            let watch = try await SiseBinary.run(["watch", "--alerts", "--json", "--duration", "4", "--upbit-url", url, "--data-dir", data])
            #expect(watch.status == 0, "\(watch.stderr)")
            let alerts = watch.stdout.split(separator: "\n").compactMap { object(String($0)) }.filter { $0["type"] as? String == "alert" }
            #expect(alerts.count == 1)
            #expect(alerts.first?["alertId"] as? String == id.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(alerts.first?["market"] as? String == "KRW-BTC" && alerts.first?["rule"] as? String == "above")
            let history = try await SiseBinary.run(["alerts", "history", "--json", "--data-dir", data])
            #expect(history.stdout.split(separator: "\n").count == 1)
            let after = try await SiseBinary.run(["alerts", "list", "--json", "--data-dir", data])
            let rules = try #require(object(after.stdout)?["alerts"] as? [[String: Any]])
            #expect(rules.filter { $0["enabled"] as? Bool == false }.count == 1, "the one-shot alert is off")
            let removed = try await SiseBinary.run(["alerts", "rm", id.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "--data-dir", data])
            #expect(removed.status == 0)

            // A premium rule: the premium's inputs start for it, and one already true fires.
            let premium = try await SiseBinary.run(["alerts", "add", "BTC", "premium-above", "--data-dir", data, "--", "-50"])
            #expect(premium.status == 0, "\(premium.stderr)")
            // …and one on ETH's OKX cell: the watch polls OKX for it.
            let okx = try await SiseBinary.run(["alerts", "add", "ETH", "premium-above", "--venue", "okx", "--data-dir", data, "--", "-50"])
            #expect(okx.status == 0, "\(okx.stderr)")
            let fired = try await SiseBinary.run([
                "watch", "--alerts", "--json", "--count", "2", "--duration", "15", "--upbit-url", url,
                "--binance-url", url + "/binance", "--okx-url", url + "/okx", "--data-dir", data,
            ])
            let lines = fired.stdout.split(separator: "\n").compactMap { object(String($0)) }.filter { $0["type"] as? String == "alert" }
            #expect(lines.allSatisfy { $0["rule"] as? String == "premiumAbove" && $0["observed"] is Double }, "\(fired.stdout)")
            #expect(Set(lines.compactMap { $0["venue"] as? String }) == ["binance", "okx"], "\(fired.stdout) \(fired.stderr)")
        }
    }

    /// The new kinds from the terminal: an indicator signal and a 체결강도 line kept with their
    /// terms; a volume spike added (refused under its field when the factor or the window is out
    /// of range), and fired in `watch --alerts` by a surge on a simulator whose clock runs 30 times
    /// real time (a minute's window covered in two seconds).
    @Test func aVolumeSpikeFromTheTerminal() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-cli-spike-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let start = Date().timeIntervalSince1970
        try await withSimulator(SimulatorConfiguration(now: { start + (Date().timeIntervalSince1970 - start) * 30 })) { simulator in
            let url = simulator.baseURL.absoluteString
            let added = try await SiseBinary.run([
                "alerts", "add", "XRP", "volume-spike", "3", "--window", "1", "--json", "--upbit-url", url, "--data-dir", data,
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let rule = try #require(object(added.stdout))
            #expect(rule["type"] as? String == "volumeSpike" && rule["factor"] as? String == "3" && rule["windowMinutes"] as? Int == 1, "\(rule)")
            let signal = try await SiseBinary.run([
                "alerts", "add", "ETH", "indicator", "rsiBelow", "--level", "25", "--interval", "15m", "--json", "--upbit-url", url, "--data-dir",
                data,
            ])
            let kept = try #require(object(signal.stdout))
            #expect(
                kept["indicator"] as? String == "rsiBelow" && kept["level"] as? Double == 25 && kept["interval"] as? String == "15m",
                "\(signal.stderr)"
            )
            let strength = try await SiseBinary.run([
                "alerts", "add", "ETH", "strength-above", "150", "--json", "--upbit-url", url, "--data-dir", data,
            ])
            let strong = try #require(object(strength.stdout))
            #expect(strong["type"] as? String == "strengthAbove" && strong["percent"] as? String == "150", "\(strength.stderr)")
            // Off again: the watch below is the spike's alone.
            for id in [kept["id"], strong["id"]].compactMap({ $0 as? String }) {
                #expect(try await SiseBinary.run(["alerts", "rm", id, "--data-dir", data]).status == 0)
            }
            let badSignal = try await SiseBinary.run(["alerts", "add", "ETH", "indicator", "macd", "--data-dir", data])
            // The refusals name each field as the page labels it (issue 83.13).
            #expect(badSignal.status == 2 && badSignal.stderr.contains("'신호'"), "\(badSignal.stderr)")
            for (args, word) in [(["0.5"], "'평소 대비 배수'"), (["3", "--window", "61"], "'기간(분)'")] {
                let refused = try await SiseBinary.run(["alerts", "add", "XRP", "volume-spike"] + args + ["--data-dir", data])
                #expect(refused.status == 2 && refused.stderr.contains(word), "\(refused.stderr)")
            }
            async let watched = SiseBinary.run([
                "watch", "--alerts", "--json", "--count", "1", "--duration", "20", "--upbit-url", url, "--data-dir", data,
            ])
            // The window is covered at the usual pace first; then XRP trades 20 times it.
            try await Task.sleep(for: .seconds(4))
            try await SimAdmin.post(simulator, "/_sim/surge?exchange=upbit", #"{"market":"KRW-XRP","factor":20}"#)
            let watch = try await watched
            let alerts = watch.stdout.split(separator: "\n").compactMap { object(String($0)) }.filter { $0["type"] as? String == "alert" }
            #expect(alerts.count == 1 && alerts.first?["rule"] as? String == "volumeSpike", "\(watch.stdout) \(watch.stderr)")
            #expect((alerts.first?["observed"] as? Double ?? 0) >= 3)
        }
    }
    /// "Any coin I hold": refused with nothing held, then kept, listed and fired in `watch --alerts`
    /// for the held coin (a premium line every KRW market is above, so the first reading fires);
    /// then the whole portfolio's P&L line, fired from the same watch's prices.
    @Test func anAlertOnEveryHoldingFromTheTerminal() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-cli-wide-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withSimulator { simulator in
            let url = simulator.baseURL.absoluteString
            let add = [
                "alerts", "add", "holdings", "premium-above", "--recurring", "--json", "--lang", "en", "--data-dir", data, "--upbit-url", url, "--",
                "-100",
            ]
            let empty = try await SiseBinary.run(add)
            #expect(empty.status == 2 && empty.stderr.contains("no holdings on Upbit"), "\(empty.stderr)")
            let line = try await SiseBinary.run(["alerts", "add", "holdings", "above", "100", "--lang", "en", "--data-dir", data])
            #expect(line.status == 2 && line.stderr.contains("belongs to one market"), "\(line.stderr)")
            // Bought far above any price the simulator's walk reaches (it drifts with the date: at
            // 3,000,000 a December day's 2,915,000 left the loss short of the line below).
            let bought = try await SiseBinary.run(["portfolio", "add", "buy", "KRW-ETH", "1", "--price", "30000000", "--data-dir", data])
            #expect(bought.status == 0, "\(bought.stderr)")
            let added = try await SiseBinary.run(add)
            let rule = try #require(object(added.stdout), "\(added.stderr)")
            #expect(rule["market"] as? String == "holdings" && rule["target"] as? String == "holdings", "\(rule)")
            let listed = try await SiseBinary.run(["alerts", "list", "--lang", "en", "--data-dir", data])
            #expect(listed.stdout.contains("any of my holdings: premium at or above -100%"), "\(listed.stdout)")
            let watch = try await SiseBinary.run([
                "watch", "--alerts", "--json", "--count", "1", "--duration", "20", "--upbit-url", url, "--binance-url", url + "/binance",
                "--data-dir", data,
            ])
            let alerts = watch.stdout.split(separator: "\n").compactMap { object(String($0)) }.filter { $0["type"] as? String == "alert" }
            #expect(alerts.count == 1 && alerts.first?["market"] as? String == "KRW-ETH", "\(watch.stdout) \(watch.stderr)")
            #expect(alerts.first?["alertId"] as? String == rule["id"] as? String)
            // The whole portfolio's P&L (ETH bought at 30,000,000: far above the simulator's price).
            #expect(try await SiseBinary.run(["alerts", "rm", try #require(rule["id"] as? String), "--data-dir", data]).status == 0)
            let loss = try await SiseBinary.run([
                "alerts", "add", "portfolio", "pnl-amount-below", "--json", "--data-dir", data, "--", "-100000",
            ])
            let total = try #require(object(loss.stdout), "\(loss.stderr)")
            #expect(total["type"] as? String == "pnlAmountBelow" && total["amount"] as? String == "-100000", "\(total)")
            let told = try await SiseBinary.run([
                "watch", "--alerts", "--json", "--count", "1", "--duration", "20", "--upbit-url", url, "--data-dir", data,
            ])
            let pnl = told.stdout.split(separator: "\n").compactMap { object(String($0)) }.filter { $0["type"] as? String == "alert" }
            #expect(
                pnl.first?["rule"] as? String == "pnlAmountBelow" && pnl.first?["market"] as? String == "portfolio",
                "\(told.stdout) \(told.stderr)"
            )
            #expect((pnl.first?["observed"] as? Double ?? 0) < -100_000)
        }
    }
}
