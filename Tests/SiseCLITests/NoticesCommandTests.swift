import Foundation
import SiseCore
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// `sise notices` against the simulator: every exchange asked once, newest first, filters, words.
@Suite(.serialized) struct NoticesCommandTests {
    @Test func theLatestNoticesOnce() async throws {
        try await withSimulator { simulator in
            try await SimAdmin.post(simulator, "/_sim/notices", #"{"exchange":"korbit","title":"코스모스(ATOM) 거래지원 종료 안내"}"#)
            let json = try await SiseBinary.run(["notices", "--json", "--lang", "en"] + WalletsCommandTests.urls(simulator))
            #expect(json.status == 0, "\(json.stderr)")
            let table = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let first = try #require((table["notices"] as? [[String: Any]])?.first)
            #expect(
                first["exchange"] as? String == "korbit" && first["kind"] as? String == "delisting" && (first["symbols"] as? [String]) == ["ATOM"]
            )
            let text = try await SiseBinary.run(["notices", "--kind", "delisting", "--lang", "en"] + WalletsCommandTests.urls(simulator))
            #expect(text.stdout.contains("Korbit") && text.stdout.contains("[delisting]") && text.stdout.contains("코스모스(ATOM)"), "\(text.stdout)")
            #expect(text.stdout.contains("Coinone: publishes no notices"), "\(text.stdout)")
            let bad = try await SiseBinary.run(["notices", "--kind", "rumour"])
            #expect(bad.status == 2)
        }
    }
}
