import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SiseTestSupport
import Testing

@testable import SiseServer

/// Connections that would hold the server hostage get an answer and lose their connection:
/// half a header (408 at the deadline), huge or countless headers (431), a malformed request
/// line (400), one connection too many (503).
@Suite struct ConnectionLimitTests {
    static func run(_ limits: ConnectionLimits, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let configuration = ServerConfiguration(port: 0, demo: true, dataDirectory: ServerHarness.temporaryDirectory(), limits: limits)
        let app = try await ServerHarness.build(configuration)
        try await app.test(.live) { client in try await body(try #require(client.port)) }
    }

    @Test func halfAHeaderGets408AtTheDeadline() async throws {
        try await Self.run(ConnectionLimits(headerTimeout: .seconds(1))) { port in
            let started = ContinuousClock.now
            let answer = try await RawHTTP.exchange(port: port, "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", timeout: .seconds(6))
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer.prefix(80))")
            #expect(started.duration(to: .now) < .seconds(4), "closed at the deadline, not left open")
        }
    }

    /// A `POST` of a CSV import with this device's cookies and CSRF token (so the import waits on
    /// its body rather than refusing at once), its body `length` bytes long.
    static func importHead(port: Int, path: String = "/api/portfolio/import", length: Int) async throws -> String {
        let page = try await RawHTTP.exchange(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let cookies = page.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
            .compactMap { $0.dropFirst("set-cookie:".count).split(separator: ";").first?.trimmingCharacters(in: .whitespaces) }
        let token = cookies.first { $0.contains("sise_csrf=") }?.split(separator: "=").last.map(String.init) ?? ""
        return "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:\(port)\r\nCookie: \(cookies.joined(separator: "; "))\r\n"
            + "X-CSRF-Token: \(token)\r\nContent-Type: text/csv\r\nContent-Length: \(length)\r\n\r\n"
    }

    /// Issue 84.2: a body sent a byte a second (`Content-Length: 10000`) was never timed out. Past
    /// the grace its pace is judged: a request still waiting on it gets one JSON 408, one already
    /// answered (a 404 before its body ended) loses its connection without a second answer.
    @Test(arguments: ["/api/portfolio/import", "/no-such-page"])
    func aBodyTrickledAByteAtATimeIsCut(_ path: String) async throws {
        let limits = ConnectionLimits(bodyTimeout: .seconds(20), bodyGrace: .seconds(1), minimumBodyRate: 100)
        try await Self.run(limits) { port in
            let head = try await Self.importHead(port: port, path: path, length: 10_000)
            let (answer, closed) = try await RawHTTP.trickle(port: port, head: head, every: .milliseconds(250), limit: .seconds(10))
            let after = try #require(closed, "still open after 10 s: \(answer.prefix(120))")
            #expect(after < .seconds(5), "closed \(after) after the head")
            #expect(answer.components(separatedBy: "HTTP/1.1 ").count - 1 <= 1, "one answer at most: \(answer)")
            if path == "/api/portfolio/import" {
                #expect(answer.hasPrefix("HTTP/1.1 408") && answer.contains("body_timeout"), "\(answer.prefix(200))")
            }
        }
    }

    /// A body at a person's pace (a slow phone: ≈ 480 B/s against a floor of 100 — room for a loaded
    /// machine's late timers) is read whole, well past the grace, and answered by its route.
    @Test func aBodyAtAPersonsPaceIsReadWhole() async throws {
        let limits = ConnectionLimits(bodyTimeout: .seconds(20), bodyGrace: .seconds(1), minimumBodyRate: 100)
        try await Self.run(limits) { port in
            let head = try await Self.importHead(port: port, length: 1_440)
            let (answer, _) = try await RawHTTP.trickle(
                port: port,
                head: head,
                chunk: 120,
                every: .milliseconds(250),
                total: 1_440,
                limit: .seconds(6)
            )
            #expect(
                answer.hasPrefix("HTTP/1.1 400") && !answer.contains("body_timeout"),
                "the import read it and refused the CSV: \(answer.prefix(200))"
            )
        }
    }

    /// A connection opened ahead of its request (browsers open them speculatively) and left
    /// silent does not hold the server's shutdown to the head deadline: it is closed at once.
    @Test func aSilentConnectionDoesNotHoldTheShutdown() async throws {
        let silent = NIOLockedValueBox<(any Channel)?>(nil)
        let ending = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
        try await Self.run(ConnectionLimits(headerTimeout: .seconds(30))) { port in
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
            silent.withLockedValue { $0 = channel }
            try await Task.sleep(for: .milliseconds(200))
            ending.withLockedValue { $0 = .now }
        }
        let ended = try #require(ending.withLockedValue { $0 }).duration(to: .now)
        #expect(ended < .seconds(5), "the server took \(ended) to end")
        let channel = try #require(silent.withLockedValue { $0 })
        #expect(!channel.isActive, "the server closed the silent connection")
        try? await channel.close()
    }

    /// A request target longer than 8 KB gets one answer, 414 in JSON — never a second, empty
    /// one from the HTTP layer behind (the contract fuzzer found that with a 25 KB query).
    @Test func aHugeRequestTargetGetsOne414() async throws {
        try await Self.run(ConnectionLimits()) { port in
            let target = "/api/compare?symbols=" + String(repeating: "%F0%95%B3%AC", count: 2_100)
            let answer = try await RawHTTP.exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 414"), "\(answer.prefix(80))")
            #expect(answer.contains("application/json") && answer.contains("uri_too_long"))
            #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "exactly one response")
        }
    }

    /// The same on a kept-alive connection: the second request's oversized head is answered in
    /// JSON (431), not with the HTTP layer's empty 400 (the contract fuzzer found it, a session
    /// reusing its connection for a 25 KB query).
    @Test func anOversizedHeadAfterAKeptAliveRequestIsAnsweredInJSON() async throws {
        try await Self.run(ConnectionLimits()) { port in
            let target = "/api/premium?symbols=" + String(repeating: "%F0%95%B3%AC", count: 2_100)
            let answer = try await RawHTTP.exchange(
                port: port,
                "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    + "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            )
            // Sent in one write the two are pipelined, and the parser meets the second before the
            // first is answered: the connection ends with the JSON 431 either way.
            #expect(answer.contains("HTTP/1.1 431") && answer.contains("headers_too_large"), "\(answer.prefix(600))")
            #expect(!answer.contains("400 Bad Request"), "never the HTTP layer's empty 400")
        }
    }

    /// A raw (not percent-encoded) UTF-8 target is malformed: one JSON 400, not the HTTP
    /// parser's empty one.
    @Test func aRawUTF8TargetGetsOneJSON400() async throws {
        try await Self.run(ConnectionLimits()) { port in
            let answer = try await RawHTTP.exchange(port: port, "GET /api/compare?symbols=비트코인 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(
                answer.hasPrefix("HTTP/1.1 400") && answer.contains("application/json") && answer.contains("bad_request"),
                "\(answer.prefix(120))"
            )
            #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "exactly one response")
        }
    }

    @Test func hugeOrCountlessHeadersGet431() async throws {
        try await Self.run(ConnectionLimits()) { port in
            let huge = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "a", count: 100_000) + "\r\n\r\n"
            let hugeAnswer = try await RawHTTP.exchange(port: port, huge)
            #expect(hugeAnswer.hasPrefix("HTTP/1.1 431"))
            let many = "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n" + (0..<20_000).map { "X-\($0): 1\r\n" }.joined() + "\r\n"
            let manyAnswer = try await RawHTTP.exchange(port: port, many)
            #expect(manyAnswer.hasPrefix("HTTP/1.1 431"))
        }
    }

    @Test(arguments: ["GARBAGE\r\n\r\n", "GET\r\n\r\n", "get / HTTP/1.1\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "GET /\u{1}x HTTP/1.1\r\n\r\n"])
    func malformedRequestLinesGet400(_ request: String) async throws {
        try await Self.run(ConnectionLimits()) { port in
            let answer = try await RawHTTP.exchange(port: port, request)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription) → \(answer.prefix(60))")
        }
    }

    @Test func aWellFormedRequestStillWorks() async throws {
        try await Self.run(ConnectionLimits()) { port in
            let answer = try await RawHTTP.exchange(port: port, "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func theCountersRefuseTheConnectionTooMany() {
        let counter = ConnectionCounter(limits: ConnectionLimits(maxConnections: 3, maxConnectionsPerAddress: 2))
        #expect(counter.open("10.0.0.1") && counter.open("10.0.0.1"))
        #expect(!counter.open("10.0.0.1"), "two per address")
        #expect(counter.open("10.0.0.2"))
        #expect(!counter.open("10.0.0.3"), "three in all")
        counter.close("10.0.0.1")
        #expect(counter.open("10.0.0.3"))
        #expect(counter.total == 3)
    }
}

extension ConnectionLimitTests {
    /// Regression: the guard leaves the pipeline after the first request head, so it never saw
    /// connections close and the count only grew until every connection was refused.
    @Test func closedConnectionsGiveTheirPlaceBack() async throws {
        try await Self.run(ConnectionLimits(maxConnections: 2)) { port in
            for _ in 0..<6 {
                let answer = try await RawHTTP.exchange(port: port, "GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(40))")
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
