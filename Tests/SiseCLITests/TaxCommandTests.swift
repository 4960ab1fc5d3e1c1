import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise tax` as a script uses it, before 2027-01-01: the local portfolio's 2027 preview on the
/// simulator's four exchanges — JSON as the API answers, the table, the CSV, refusals.
@Suite struct TaxCommandTests {
    @Test func thePreviewAsJSONTableAndCSV() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sise-cli-tax-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let urls = ["--upbit-url", base, "--korbit-url", base, "--bithumb-url", base + "/bithumb", "--coinone-url", base + "/coinone"]
            let added = try await SiseBinary.run([
                "portfolio", "add", "buy", "KRW-BTC", "0.5", "--price", "1000", "--at", "2026-06-01T09:00:00+09:00", "--data-dir", data,
            ])
            #expect(added.status == 0, "\(added.stderr)")
            let json = try await SiseBinary.run(["tax", "2027", "--json", "--method", "fifo", "--data-dir", data] + urls)
            #expect(json.status == 0, "\(json.stderr)")
            let preview = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(preview["year"] as? Int == 2027 && preview["method"] as? String == "fifo")
            let btc = try #require((preview["coins"] as? [[String: Any]])?.first)
            #expect(btc["opening"] as? String == "deemed" && btc["openingQuantity"] as? String == "0.5")
            let exchanges = try #require((btc["deemedPrice"] as? [String: Any])?["exchanges"] as? [[String: Any]])
            #expect(exchanges.count == 4 && exchanges.allSatisfy { $0["source"] as? String == "live" }, "every exchange's live price: \(exchanges)")

            let table = try await SiseBinary.run(["tax", "--data-dir", data, "--lang", "en"] + urls)
            #expect(table.status == 0 && table.stdout.contains("Opening cost") && table.stdout.contains("BTC"))
            #expect(table.stdout.contains("An estimate, not tax advice") && table.stdout.contains("Estimated tax"))
            let csv = try await SiseBinary.run(["tax", "--csv", "transactions", "--data-dir", data] + urls)
            #expect(csv.stdout.hasPrefix("\u{FEFF}연도,계산방법,일시(KST)"))

            for bad in [["tax", "2026"], ["tax", "--method", "lifo"], ["tax", "--csv", "x"]] {
                let refused = try await SiseBinary.run(bad + ["--data-dir", data] + urls)
                #expect(refused.status == 2, "\(bad): \(refused.stderr)")
            }
        }
    }
}
