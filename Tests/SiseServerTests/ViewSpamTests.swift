import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import SiseTestSupport
import Testing

/// `/ws` view changes: a burst costs one snapshot of the newest view, and a flood closes the
/// connection instead of holding a core.
@Suite struct ViewSpamTests {
    static func view(_ q: String) -> String {
        #"{"type":"view","quote":"KRW","sort":"value","order":"desc","q":"\#(q)","favoritesOnly":false,"lang":"en"}"#
    }

    @Test func aBurstOfViewChangesCostsOneSnapshotOfTheNewest() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let inbox = BoardSocketTests.Inbox()
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/ws",
                configuration: .init(maxFrameSize: 1 << 22),
                logger: Logger(label: "test")
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            if case .text(let text) = message { inbox.add(text) }
                        }
                    }
                    try await outbound.write(.text(Self.view("")))
                    try await expectEventually(timeout: .seconds(10)) { !inbox.of("snapshot").isEmpty }
                    for q in ["b", "bi", "bit", "bitc", "bitco", "bitcoi", "bitcoin"] { try await outbound.write(.text(Self.view(q))) }
                    // The newest view's snapshot is the last one owed: once it is in, nothing more is.
                    try await expectEventually(timeout: .seconds(10), "the newest view's snapshot") {
                        (inbox.of("snapshot").last?["view"] as? [String: Any])?["q"] as? String == "bitcoin"
                    }
                    try? await outbound.close(.normalClosure, reason: nil)
                    group.cancelAll()
                }
            }
            let snapshots = inbox.of("snapshot")
            #expect(snapshots.count <= 3, "7 changes in a burst: \(snapshots.count - 1) snapshots after the first")
            #expect((snapshots.last?["view"] as? [String: Any])?["q"] as? String == "bitcoin", "the newest view wins")
        }
    }

    @Test func aFloodOfMessagesClosesTheConnection() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let inbox = BoardSocketTests.Inbox()
            let started = ContinuousClock.now
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/ws",
                configuration: .init(maxFrameSize: 1 << 22),
                logger: Logger(label: "test")
            ) { inbound, outbound, _ in
                for i in 0..<200 { try? await outbound.write(.text(Self.view("x\(i)"))) }
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    if case .text(let text) = message { inbox.add(text) }
                }
            }
            #expect(inbox.of("error").contains { $0["code"] as? String == "too_many_messages" })
            #expect(started.duration(to: .now) < .seconds(10), "the server closed the socket")
        }
    }
}
