import Foundation
import HummingbirdTesting
import SiseCore
import SiseTestSupport
import Testing

/// The server reads the wall clock it is handed: a board whose last data came "now" reads an hour
/// old on a server whose clock is an hour ahead — in `/api/status` as on every page's status.
@Suite struct ServerClockTests {
    @Test func theStatusAgeComesFromTheInjectedClock() async throws {
        let ahead = WallClock { WallClock.system.now + 3_600_000 }
        try await ServerHarness.run(clock: ahead) { client in
            let status = try #require(json(try await client.execute(uri: "/api/status", method: .get)) as? [String: Any])
            let upbit = try #require((status["exchanges"] as? [String: Any])?["upbit"] as? [String: Any])
            let age = try #require(upbit["ageMs"] as? Int)
            #expect(age >= 3_590_000 && age < 3_700_000, "\(age) ms")
        }
    }
}
