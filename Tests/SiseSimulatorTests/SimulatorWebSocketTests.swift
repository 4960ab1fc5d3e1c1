import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// The simulator's WebSocket speaks Upbit's protocol: binary frames, snapshot first, errors.
@Suite struct SimulatorWebSocketTests {
    /// Sends `request`, collects up to `limit` frames (as text) until the server closes or 3 s pass.
    func exchange(_ simulator: RunningSimulator, _ request: String, limit: Int) async throws -> (frames: [String], binary: Bool) {
        let frames = Collector()
        let url = "ws://127.0.0.1:\(simulator.port)/websocket/v1"
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await WebSocketClient.connect(url: url, logger: Logger(label: "test")) { inbound, outbound, _ in
                    try await outbound.write(.text(request))
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        switch message {
                        case .binary(let buffer): frames.add(String(buffer: buffer), binary: true)
                        case .text(let text): frames.add(text, binary: false)
                        }
                        if frames.count >= limit { break }
                    }
                    try? await outbound.close(.normalClosure, reason: nil)
                }
            }
            group.addTask { try await Task.sleep(for: .seconds(3)) }
            try await group.next()
            group.cancelAll()
        }
        return (frames.frames, frames.allBinary)
    }

    final class Collector: Sendable {
        private let state = Mutex<(frames: [String], allBinary: Bool)>(([], true))
        func add(_ frame: String, binary: Bool) {
            state.withLock {
                $0.frames.append(frame)
                $0.allBinary = $0.allBinary && binary
            }
        }
        var count: Int { state.withLock { $0.frames.count } }
        var frames: [String] { state.withLock { $0.frames } }
        var allBinary: Bool { state.withLock { $0.allBinary } }
    }

    @Test func snapshotPerCodeThenRealtimeInBinaryFrames() async throws {
        try await withSimulator { simulator in
            let request = #"[{"ticket":"t1"},{"type":"ticker","codes":["KRW-BTC","KRW-ETH","krw-xrp","KRW-NOPE"]},{"format":"DEFAULT"}]"#
            let (frames, binary) = try await exchange(simulator, request, limit: 6)
            #expect(binary)
            let objects = frames.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(objects.count == 6)
            #expect(objects.prefix(2).map { $0["stream_type"] as? String } == ["SNAPSHOT", "SNAPSHOT"])
            #expect(objects.dropFirst(2).allSatisfy { $0["stream_type"] as? String == "REALTIME" })
            // Lower-case and unknown codes are ignored silently, as on Upbit.
            #expect(Set(objects.compactMap { $0["code"] as? String }).isSubset(of: ["KRW-BTC", "KRW-ETH"]))
            #expect(objects[0]["trade_price"] is Double)
        }
    }

    @Test func simpleFormatUsesAbbreviatedKeys() async throws {
        try await withSimulator { simulator in
            let request = #"[{"ticket":"t2"},{"type":"ticker","codes":["KRW-BTC"],"is_only_snapshot":true},{"format":"SIMPLE"}]"#
            let (frames, _) = try await exchange(simulator, request, limit: 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(frames[0].utf8)) as? [String: Any])
            #expect(object["ty"] as? String == "ticker")
            #expect(object["cd"] as? String == "KRW-BTC")
            #expect(object["tp"] is Double)
            #expect(object["st"] as? String == "SNAPSHOT")
        }
    }

    @Test(arguments: [
        (#"[{"type":"ticker","codes":["KRW-BTC"]}]"#, "NO_TICKET"),
        (#"{"ticket":"x"}"#, "WRONG_FORMAT"),
        (#"[{"ticket":"x"},{"type":"nope","codes":["KRW-BTC"]}]"#, "INVALID_PARAM"),
        (#"[{"ticket":"x"},{"type":"ticker","codes":[]}]"#, "NO_CODES"),
        (#"[{"ticket":"x"},{"type":"ticker","codes":["KRW-BTC"]},{"format":"XML"}]"#, "WRONG_FORMAT"),
    ])
    func badRequestsGetUpbitsErrorFrame(_ request: String, _ name: String) async throws {
        try await withSimulator { simulator in
            let (frames, _) = try await exchange(simulator, request, limit: 5)
            #expect(frames.count == 1, "an error frame, then the server closes")
            let object = try #require(try JSONSerialization.jsonObject(with: Data((frames.first ?? "{}").utf8)) as? [String: Any])
            #expect((object["error"] as? [String: Any])?["name"] as? String == name)
        }
    }

    @Test func connectsAreCountedAndRefusalIsASwitch() async throws {
        try await withSimulator { simulator in
            _ = try await exchange(simulator, #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"],"is_only_snapshot":true}]"#, limit: 1)
            #expect(try await SimAdmin.stats(simulator)["upbit"]?["websocket"] == 1)
            try await SimAdmin.setFaults(simulator, #"{"wsRefuse":true}"#)
            await #expect(throws: (any Error).self) {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(simulator.port)/websocket/v1", logger: Logger(label: "t")) { _, _, _ in }
            }
        }
    }
}
