import Foundation
import Logging
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseFeeds

/// What the real clients put on the wire, recorded by a raw loopback server: never an `Origin`
/// header (Upbit limits requests carrying one to 1 per 10 s), for REST and WebSocket alike.
@Suite(.serialized) struct NoOriginHandshakeTests {
    static let originRefusal =
        "HTTP/1.1 429 Too Many Requests\r\nRemaining-Req: group=origin; min=6; sec=0\r\n"
        + "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"

    @Test func theWebSocketUpgradeCarriesNoOrigin() async throws {
        let recorder = try await HandshakeRecorder.start(response: Self.originRefusal)
        defer { Task { await recorder.stop() } }
        let url = URL(string: "ws://127.0.0.1:\(recorder.port)/websocket/v1")!
        await #expect(throws: UpstreamWebSocket.Refusal.self) {
            try await UpstreamWebSocket.connect(to: url, logger: Logger(label: "test")) { _ in }
        }
        let names = try #require(recorder.headerNames.first)
        #expect(!names.contains("origin"), "handshake: \(recorder.requests)")
        #expect(names.contains("host") && names.contains("upgrade") && names.contains("sec-websocket-key"))
        #expect(recorder.requests.first?.hasPrefix("GET /websocket/v1 HTTP/1.1") == true)
    }

    @Test func anOriginAskedForIsStillNotSent() async throws {
        let recorder = try await HandshakeRecorder.start(response: Self.originRefusal)
        defer { Task { await recorder.stop() } }
        let url = URL(string: "ws://127.0.0.1:\(recorder.port)/websocket/v1")!
        let options = UpstreamWebSocket.Options(headers: [("Origin", "https://example.com")])
        _ = try? await UpstreamWebSocket.connect(to: url, options: options, logger: Logger(label: "test")) { _ in }
        #expect(recorder.headerNames.first?.contains("origin") == false)
    }

    @Test func aRefusedUpgradeNamesItsGroupAndWait() async throws {
        let recorder = try await HandshakeRecorder.start(response: Self.originRefusal)
        defer { Task { await recorder.stop() } }
        let url = URL(string: "ws://127.0.0.1:\(recorder.port)/websocket/v1")!
        do {
            try await UpstreamWebSocket.connect(to: url, logger: Logger(label: "test")) { _ in }
            Issue.record("the upgrade was refused; connect must throw")
        } catch let refusal as UpstreamWebSocket.Refusal {
            #expect(refusal.group == "origin")
            #expect(refusal.error == .rateLimited(retryAfter: .seconds(10)), "the origin group's window is 10 s")
        }
    }

    /// A 429 on the upgrade is waited out: no tight reconnect loop.
    @Test func theTickerStreamWaitsOutARefusedUpgrade() async throws {
        let recorder = try await HandshakeRecorder.start(response: Self.originRefusal)
        defer { Task { await recorder.stop() } }
        let clock = ManualClock()
        let stream = TickerStream(configuration: .init(url: URL(string: "ws://127.0.0.1:\(recorder.port)/websocket/v1")!), clock: clock)
        let seen = Mutex<[TickerStreamEvent]>([])
        let task = Task {
            await stream.run(codes: { [] }, events: { event in seen.withLock { $0.append(event) } })
        }
        defer { task.cancel() }
        // One attempt, refused for ten seconds, then a wait on the clock.
        try await expectEventually(timeout: .seconds(10), "refused, then waiting") {
            seen.withLock { $0 }.contains(.disconnected(.rateLimited(retryAfter: .seconds(10)))) && clock.sleepers == 1
        }
        #expect(recorder.requests.count == 1)
        // 9.9 s on, nothing woke: no attempt before the refusal's wait is over.
        clock.advance(by: .milliseconds(9_900))
        #expect(clock.sleepers == 1 && recorder.requests.count == 1, "not before the group's window")
        clock.advance(by: .milliseconds(200))
        try await expectEventually(timeout: .seconds(10), "the next attempt, once the wait is over") { recorder.requests.count == 2 }
    }

    @Test func restRequestsCarryNoOrigin() async throws {
        let recorder = try await HandshakeRecorder.start(
            response: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]"
        )
        defer { Task { await recorder.stop() } }
        let transport = LiveHTTPTransport()
        let url = URL(string: "http://127.0.0.1:\(recorder.port)/v1/market/all")!
        _ = try await transport.get(url, headers: [("Origin", "https://example.com")])
        await transport.shutdown()
        let names = try #require(recorder.headerNames.first)
        #expect(!names.contains("origin"), "request: \(recorder.requests)")
    }
}

extension NoOriginHandshakeTests {
    /// A server that accepts the connection and never answers the upgrade: the handshake times
    /// out (and the connection is closed) instead of hanging the stream forever.
    @Test func aSilentUpgradeTimesOut() async throws {
        let recorder = try await HandshakeRecorder.start(response: "")
        defer { Task { await recorder.stop() } }
        let url = URL(string: "ws://127.0.0.1:\(recorder.port)/websocket/v1")!
        let started = ContinuousClock.now
        await #expect(throws: FeedError.timeout) {
            try await UpstreamWebSocket.connect(
                to: url,
                options: .init(handshakeTimeout: .milliseconds(500)),
                logger: Logger(label: "test")
            ) { _ in }
        }
        #expect(started.duration(to: .now) < .seconds(3))
        #expect(recorder.requests.count == 1)
    }
}
