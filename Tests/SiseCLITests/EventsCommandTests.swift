import Foundation
import SiseCore
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise events --check` against the simulator: a first look records nothing, a wallet
/// suspended and a coin flagged between two looks are recorded once each (a third look adds
/// nothing), kept in the data directory, filtered, and bad input refused.
@Suite(.serialized) struct EventsCommandTests {
    @Test func twoLooksRecordWhatChangedBetweenThem() async throws {
        try await withSimulator { simulator in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-events-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let key = ["--upbit-access-key", SimulatedUpbitKey.access, "--upbit-secret-key", SimulatedUpbitKey.secret]
            let common = ["--data-dir", directory.path] + WalletsCommandTests.urls(simulator) + key
            let first = try await SiseBinary.run(["events", "--check", "--json"] + common)
            #expect(first.status == 0, "\(first.stderr)")
            let baseline = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
            #expect((baseline["events"] as? [Any])?.isEmpty == true)
            #expect((baseline["watched"] as? [[String: Any]])?.count == 4, "\(baseline["watched"] ?? "")")

            try await SimAdmin.post(simulator, "/_sim/wallets", #"{"exchange":"coinone","currency":"ETH","withdraw":false}"#)
            try await SimAdmin.post(simulator, "/_sim/flag?exchange=upbit", #"{"market":"KRW-ETH","cautions":["TRADING_VOLUME_SOARING"]}"#)
            for _ in 0..<2 {
                let again = try await SiseBinary.run(["events", "--check", "--lang", "en"] + common)
                #expect(again.status == 0, "\(again.stderr)")
            }
            let text = try await SiseBinary.run(["events", "ETH", "--lang", "en"] + common)
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.count == 2, "\(text.stdout)")
            #expect(text.stdout.contains("Coinone") && text.stdout.contains("withdrawals suspended (ETH)"), "\(text.stdout)")
            #expect(
                text.stdout.contains("Upbit") && text.stdout.contains("flagged Caution: ") && text.stdout.contains("trading volume surge"),
                "\(text.stdout)"
            )
            #expect(text.stdout.contains("1 h later pending"), "\(text.stdout)")
            let wallets = try await SiseBinary.run(["events", "--kind", "withdraw", "--exchange", "coinone", "--json"] + common)
            let table = try #require(try JSONSerialization.jsonObject(with: Data(wallets.stdout.utf8)) as? [String: Any])
            #expect((table["events"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["withdrawSuspended"])
            #expect(try await SiseBinary.run(["events", "--kind", "rumour"]).status == 2)
            #expect(try await SiseBinary.run(["events", "<b>"]).status == 2)
            #expect(try await SiseBinary.run(["events", "--limit", "0"]).status == 2)
        }
    }
}
