import Foundation
import SiseCore
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// The terminal's 변동 알림: `sise alerts changes` turns topics on, and `sise watch --alerts` tells
/// a held coin's suspended deposits as it tells a price alert — once, in words — against a history
/// `sise events --check` began in the same data directory.
@Suite(.serialized) struct ChangeAlertsCommandTests {
    @Test func theTerminalIsToldOfAHeldCoinsSuspension() async throws {
        try await withSimulator { simulator in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sise-changes-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let data = ["--data-dir", directory.path]
            let common = data + WalletsCommandTests.urls(simulator)
            let on = try await SiseBinary.run(["alerts", "changes", "--wallets", "on", "--json"] + data)
            #expect(on.status == 0, "\(on.stderr)")
            #expect(on.stdout.contains(#""wallets":true"#) && on.stdout.contains(#""listings":false"#), "\(on.stdout)")
            let shown = try await SiseBinary.run(["alerts", "changes", "--lang", "en"] + data)
            #expect(shown.stdout.hasPrefix("[x] a favourite's or holding's wallet suspended or reopened"), "\(shown.stdout)")
            #expect(try await SiseBinary.run(["alerts", "changes", "--wallets", "maybe"] + data).status == 2)
            let bought = try await SiseBinary.run(
                ["portfolio", "add", "buy", "KRW-ETH", "1", "--price", "3000000", "--exchange", "korbit"] + data
            )
            #expect(bought.status == 0, "\(bought.stderr)")
            // The history's first look: a baseline. Then Korbit suspends ETH's deposits.
            #expect(try await SiseBinary.run(["events", "--check"] + common).status == 0)
            try await SimAdmin.post(simulator, "/_sim/wallets", #"{"exchange":"korbit","currency":"ETH","deposit":false}"#)
            let watched = try await SiseBinary.run(
                ["watch", "--alerts", "--events-every", "1", "--count", "1", "--duration", "30", "--lang", "en"] + common
            )
            #expect(watched.status == 0, "\(watched.stderr)")
            #expect(watched.stdout.contains("Korbit ETH deposits suspended (ETH)"), "\(watched.stdout)")
            let history = try await SiseBinary.run(["alerts", "history", "--json"] + data)
            #expect(history.stdout.components(separatedBy: "depositSuspended").count == 2, "\(history.stdout)")
        }
    }
}
