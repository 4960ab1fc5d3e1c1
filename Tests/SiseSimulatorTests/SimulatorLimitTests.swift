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

    @Test func aSocketWithNothingFromTheClientIsClosedAfterTheIdleTimeout() async throws {
        try await withSimulator(SimulatorConfiguration(wsIdleTimeout: .seconds(1))) { simulator in
            let started = ContinuousClock.now
            try await UpstreamWebSocket.connect(to: url(simulator), logger: logger) { connection in
                try await connection.send(text: #"[{"ticket":"t"},{"type":"ticker","codes":["KRW-BTC"]}]"#)
                _ = try await connection.read { _ in }
            }
            let lived = started.duration(to: .now)
            #expect(lived >= .milliseconds(900) && lived < .seconds(4), "closed after \(lived)")
        }
    }

    /// Our stream keeps the socket open with text PINGs well inside the idle timeout.
    @Test func theTickerStreamKeepsItsSocketOpenPastTheIdleTimeout() async throws {
        try await withSimulator(SimulatorConfiguration(wsIdleTimeout: .seconds(1))) { simulator in
            let stream = TickerStream(configuration: .init(url: url(simulator), pingInterval: .milliseconds(300)))
            let disconnects = Mutex(0)
            let task = Task {
                await stream.run(
                    codes: { [MarketID("KRW-BTC")!] },
                    events: { event in
                        if case .disconnected = event { disconnects.withLock { $0 += 1 } }
                    }
                )
            }
            try await Task.sleep(for: .milliseconds(2_500))
            task.cancel()
            await task.value
            #expect(disconnects.withLock { $0 } == 0)
            #expect(try await SimAdmin.stats(simulator)["upbit"]?["websocket"] == 1)
        }
    }
}
