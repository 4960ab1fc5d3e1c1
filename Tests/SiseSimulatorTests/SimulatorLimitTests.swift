import Foundation
import HummingbirdWSClient
import Logging
import SiseCore
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The simulator enforces Upbit's documented limits, so a client that breaks them fails tests:
/// the `Origin` rule (1 per 10 s, REST and WebSocket), 5 connects per second per address,
/// 5 request messages per second per connection, and the idle close.
@Suite(.serialized) struct SimulatorLimitTests {
    let logger = Logger(label: "test")

    func url(_ simulator: RunningSimulator) -> URL {
        URL(string: "ws://127.0.0.1:\(simulator.port)/websocket/v1")!
    }

    @Test func restRequestsWithOriginShareOneRequestPerTenSeconds() async throws {
        try await withSimulator { simulator in
            var request = URLRequest(url: simulator.baseURL.appendingPathComponent("v1/market/all"))
            request.setValue("https://example.com", forHTTPHeaderField: "Origin")
            let (_, first) = try await URLSession.shared.data(for: request)
            let (_, second) = try await URLSession.shared.data(for: request)
            #expect((first as? HTTPURLResponse)?.statusCode == 200)
            let refused = try #require(second as? HTTPURLResponse)
            #expect(refused.statusCode == 429)
            #expect(refused.value(forHTTPHeaderField: "Remaining-Req")?.hasPrefix("group=origin;") == true)
            // Without Origin the normal ticker group answers.
            let (_, plain) = try await URLSession.shared.data(from: simulator.baseURL.appendingPathComponent("v1/market/all"))
            #expect((plain as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    /// The general-purpose client sends `Origin`: its second connect within 10 s is refused.
    /// Ours sends none and is not.
    @Test func webSocketUpgradesWithOriginShareOnePerTenSeconds() async throws {
        try await withSimulator { simulator in
            try await WebSocketClient.connect(url: url(simulator).absoluteString, logger: logger) { _, outbound, _ in
                try await outbound.close(.normalClosure, reason: nil)
            }
            await #expect(throws: (any Error).self) {
                try await WebSocketClient.connect(url: url(simulator).absoluteString, logger: logger) { _, _, _ in }
            }
            #expect(try await SimAdmin.stats(simulator)["refused.upbit"]?["origin"] == 1)
            for _ in 0..<3 {
                try await UpstreamWebSocket.connect(to: url(simulator), logger: logger) { try await $0.close() }
            }
        }
    }

    @Test func theUpgradeReplyCarriesRemainingReq() async throws {
        try await withSimulator { simulator in
            let header = try await UpstreamWebSocket.connect(to: url(simulator), logger: logger) { connection in
                try await connection.close()
                return connection.reply.headers.first(name: "remaining-req")
            }
            #expect(header?.hasPrefix("group=websocket;") == true)
        }
    }

    @Test func moreThanFiveConnectsASecondAreRefusedWith429() async throws {
        try await withSimulator { simulator in
            var refusals: [UpstreamWebSocket.Refusal] = []
            for _ in 0..<8 {
                do {
                    try await UpstreamWebSocket.connect(to: url(simulator), logger: logger) { try await $0.close() }
                } catch let refusal as UpstreamWebSocket.Refusal {
                    refusals.append(refusal)
                }
            }
            #expect(!refusals.isEmpty)
            #expect(refusals.allSatisfy { $0.group == "websocket-connect" && $0.error.status == 429 }, "\(refusals)")
        }
    }

    @Test func moreThanFiveRequestsASecondOnOneConnectionGetAnErrorFrame() async throws {
        try await withSimulator { simulator in
            let request = #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"],"is_only_snapshot":true}]"#
            let errors = Mutex<[String]>([])
            try await UpstreamWebSocket.connect(to: url(simulator), logger: logger) { connection in
                for _ in 0..<7 { try await connection.send(text: request) }
                _ = try await connection.read { message in
                    if case .binary(let buffer) = message, String(buffer: buffer).contains("\"error\"") {
                        errors.withLock { $0.append(String(buffer: buffer)) }
                    }
                }
            }
            #expect(errors.withLock { $0 }.contains { $0.contains("TOO_MANY_REQUESTS") })
        }
    }

    /// The simulator's clock (idle timeout, request windows) and the stream's (pings) are one
    /// driven clock: time passes when the test says so, and frames flow meanwhile.
    private func upbitCount(_ simulator: RunningSimulator, _ key: String) async throws -> Int {
        try await SimAdmin.stats(simulator)["upbit"]?[key] ?? 0
    }

    @Test func aSocketWithNothingFromTheClientIsClosedAfterTheIdleTimeout() async throws {
        let clock = ManualClock()
        try await withSimulator(SimulatorConfiguration(wsIdleTimeout: .seconds(1), clock: clock)) { simulator in
            let frames = Mutex(0)
            let closed = Mutex(false)
            let reader = Task {
                defer { closed.withLock { $0 = true } }
                try await UpstreamWebSocket.connect(to: url(simulator), logger: logger) { connection in
                    try await connection.send(text: #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"]}]"#)
                    _ = try await connection.read { _ in frames.withLock { $0 += 1 } }
                }
            }
            defer { reader.cancel() }
            let subscribed = try await waitUntil { try await upbitCount(simulator, "websocket-subscribe") == 1 }
            #expect(subscribed)
            // Just short of the timeout: frames keep coming (each sent after the idle check passed).
            clock.advance(by: .milliseconds(900))
            let seen = frames.withLock { $0 }
            let flowing = try await waitUntil { frames.withLock { $0 } >= seen + 3 }
            #expect(flowing)
            #expect(!closed.withLock { $0 }, "open before its idle timeout")
            clock.advance(by: .milliseconds(100))
            let closedInTime = try await waitUntil { closed.withLock { $0 } }
            #expect(closedInTime, "closed at its idle timeout")
        }
    }

    /// Our stream keeps the socket open with text PINGs well inside the idle timeout.
    @Test func theTickerStreamKeepsItsSocketOpenPastTheIdleTimeout() async throws {
        let clock = ManualClock()
        try await withSimulator(SimulatorConfiguration(wsIdleTimeout: .seconds(1), clock: clock)) { simulator in
            let stream = TickerStream(configuration: .init(url: url(simulator), pingInterval: .milliseconds(300)), clock: clock)
            let disconnects = Mutex(0)
            let tickers = Mutex(0)
            let task = Task {
                await stream.run(
                    codes: { [MarketID("KRW-BTC")!] },
                    events: { event in
                        switch event {
                        case .disconnected: disconnects.withLock { $0 += 1 }
                        case .ticker: tickers.withLock { $0 += 1 }
                        default: break
                        }
                    }
                )
            }
            // Subscribed, and the PING sent on connecting has arrived.
            let firstPing = try await waitUntil { try await upbitCount(simulator, "websocket-ping") == 1 }
            #expect(firstPing)
            // Three idle timeouts of the simulator's time, a PING arriving every 300 ms of it. Each
            // step waits for the keep-alive to be asleep again (beside the silence watchdog).
            for step in 1...10 {
                let asleep = try await waitUntil { clock.sleepers == 2 }
                #expect(asleep, "keep-alive asleep before step \(step)")
                clock.advance(by: .milliseconds(300))
                let pinged = try await waitUntil { try await upbitCount(simulator, "websocket-ping") == step + 1 }
                #expect(pinged, "PING \(step)")
            }
            // Frames sent after the last step passed the simulator's idle check at that time.
            let seen = tickers.withLock { $0 }
            let stillFlowing = try await waitUntil { tickers.withLock { $0 } >= seen + 3 }
            #expect(stillFlowing)
            task.cancel()
            await task.value
            #expect(disconnects.withLock { $0 } == 0)
            #expect(try await upbitCount(simulator, "websocket") == 1)
        }
    }
}
