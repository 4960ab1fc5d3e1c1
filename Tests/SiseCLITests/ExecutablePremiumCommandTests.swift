import Foundation
import SiseCore
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise premium BTC --amount N`: both ways once against the simulator, words in the asked
/// language, a shut wallet named, and bad amounts refused before anything is asked.
@Suite(.serialized) struct ExecutablePremiumCommandTests {
    @Test func bothWaysOnceAndAShutWallet() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let flags =
                WalletsCommandTests.urls(simulator) + [
                    "--okx-url", base + "/okx", "--binance-url", base + "/binance", "--dunamu-url", base + "/dunamu",
                ]
            let json = try await SiseBinary.run(
                ["premium", "BTC", "--amount", "1000000", "--exchange", "korbit", "--venue", "okx", "--json"] + flags
            )
            #expect(json.status == 0, "\(json.stderr)")
            let table = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let ways = try #require(table["ways"] as? [[String: Any]])
            #expect(ways.count == 2 && ways.allSatisfy { $0["state"] as? String == "ok" }, "\(ways)")
            #expect((table["fx"] as? [String: Any])?["rate"] is Double && table["venue"] as? String == "okx")

            try await SimAdmin.post(simulator, "/_sim/wallets", #"{"exchange":"korbit","currency":"BTC","withdraw":false}"#)
            let text = try await SiseBinary.run(["premium", "BTC", "--amount", "1000000", "--exchange", "korbit", "--lang", "en"] + flags)
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("Korbit has BTC withdrawals suspended") && text.stdout.contains("Buy abroad, sell here"), "\(text.stdout)")
            #expect(text.stdout.contains("trading fees are not taken off"))

            for bad in [["--amount", "5"], ["--amount", "1000000", "--matrix"], ["--amount", "nan"]] {
                let refused = try await SiseBinary.run(["premium", "BTC"] + bad + flags)
                #expect(refused.status == 2, "\(bad): \(refused.stderr)")
            }
        }
    }
}
