import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import SiseServer
import SiseSimulator
import SiseTestSupport
import Testing

/// Live truth on the web board: a page connected to `/ws` is told when the upstream stalls
/// (a status frame within the silence bound) and when it is live again; before the first board
/// it gets a status frame, never an empty snapshot.
@Suite struct StallOnTheWebBoardTests {
    @Test func aStalledUpstreamReachesThePageAsDelayedAndRecovers() async throws {
        try await withSimulator { simulator in
            let configuration = ServerConfiguration(port: 0, dataDirectory: ServerHarness.temporaryDirectory())
            let app = try await ServerHarness.build(configuration, upbitURL: simulator.baseURL, silence: .milliseconds(1_500))
            try await app.test(.live) { client in
                let port = try #require(client.port)
                let inbox = BoardSocketTests.Inbox()
                func states() -> [String] {
                    inbox.of("status").compactMap {
                        (($0["exchanges"] as? [String: Any])?["upbit"] as? [String: Any])?["state"] as? String
                    }
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await WebSocketClient.connect(
                            url: "ws://127.0.0.1:\(port)/ws",
                            configuration: .init(maxFrameSize: 1 << 22),
                            logger: Logger(label: "test")
                        ) { inbound, outbound, _ in
                            try await outbound.write(
                                .text(#"{"type":"view","quote":"KRW","sort":"value","order":"desc","q":"","favoritesOnly":false,"lang":"en"}"#)
                            )
                            for try await message in inbound.messages(maxSize: 1 << 22) {
                                if case .text(let text) = message { inbox.add(text) }
                            }
                        }
                        // A socket that ends early must not end the test before its checks ran.
                        try await Task.sleep(for: .seconds(60))
                    }
                    group.addTask {
                        try await expectEventually(timeout: .seconds(15)) { states().last == "live" || inbox.of("snapshot").count > 0 }
                        let snapshot = try #require(inbox.of("snapshot").first)
                        #expect((snapshot["rows"] as? [Any])?.isEmpty == false, "the first snapshot has rows")
                        try await expectEventually(timeout: .seconds(10)) { states().last == "live" }
                        try await SimAdmin.setFaults(simulator, #"{"wsStall":true}"#)
                        let stalled = ContinuousClock.now
                        try await expectEventually(timeout: .seconds(5)) { states().last == "delayed" }
                        #expect(stalled.duration(to: .now) < .milliseconds(3_000), "reported near the 1.5 s bound")
                        try await SimAdmin.setFaults(simulator, #"{"wsStall":false}"#)
                        let resumed = ContinuousClock.now
                        try await expectEventually(timeout: .seconds(5)) { states().last == "live" }
                        #expect(resumed.duration(to: .now) <= .seconds(3))
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }
}
