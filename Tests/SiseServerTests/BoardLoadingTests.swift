import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseSimulator
import SiseTestSupport
import Testing

/// Live truth, defect 3: before the first board lands, the board routes never answer an empty
/// 200 (a script cannot tell that from "no markets"): they wait briefly, then 503 with
/// `Retry-After`.
@Suite struct BoardLoadingTests {
    @Test func theBoardRoutesAnswer503UntilTheFirstBoardLands() async throws {
        var faults = SimFaults()
        faults.latencyMs = 2_500
        try await withSimulator(SimulatorConfiguration(faults: faults)) { simulator in
            let configuration = ServerConfiguration(port: 0, dataDirectory: ServerHarness.temporaryDirectory())
            let app = try await ServerHarness.build(configuration, upbitURL: simulator.baseURL)
            try await app.test(.live) { client in
                let started = ContinuousClock.now
                let early = try await client.execute(uri: "/api/markets", method: .get)
                #expect(early.status == .serviceUnavailable)
                #expect(errorCode(early) == "unavailable")
                #expect(early.headers[.retryAfter] == "1")
                #expect(started.duration(to: .now) >= .seconds(2), "it waited for the board first")
                let one = try await client.execute(uri: "/api/markets/KRW-BTC", method: .get)
                #expect(one.status == .serviceUnavailable)
                // Status answers at once, whatever the board.
                let status = try await client.execute(uri: "/api/status", method: .get)
                #expect(status.status == .ok)
                try await SimAdmin.setFaults(simulator, #"{"latencyMs":0}"#)
                let loaded = try await waitUntil(timeout: .seconds(20)) {
                    try await client.execute(uri: "/api/markets", method: .get).status == .ok
                }
                #expect(loaded)
                let rows = try #require(json(try await client.execute(uri: "/api/markets", method: .get)) as? [[String: Any]])
                #expect(rows.count >= 240)
            }
        }
    }
}
