import Foundation
import Logging
import NIOCore
import NIOPosix
import SiseFeeds
import Testing

/// Autobahn|Testsuite's fuzzingserver (an independent implementation of RFC 6455's test cases)
/// against Sise's own upstream WebSocket client, pointed at it as it is pointed at an exchange.
/// The client reads and never writes data, so the cases whose expected outcome is an echoed
/// message are excluded (each group with its reason); every other case must come out OK,
/// NON-STRICT or INFORMATIONAL, its closing handshake too — and across all of them the client
/// never crashes, never hangs (each case has ten seconds) and never hands over text that is not
/// UTF-8. The suite runs under Python 2.7 (`.venv-autobahn`, which the test command installs when
/// pyenv has 2.7); without it this test says so and is skipped.
@Suite struct UpstreamAutobahnTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let wstest = root.appendingPathComponent(".venv-autobahn/bin/wstest").path

    /// Cases whose expected outcome is an echo of what the server sent (what they test then is the echo).
    static let needsAnEcho = [
        "1.*",  // text and binary messages of 0 B–16 MB, echoed
        "5.3", "5.4", "5.5", "5.6", "5.7", "5.8", "5.19", "5.20",  // fragmented messages, echoed
        // valid UTF-8, echoed
        "6.1.*", "6.2.*", "6.5.*", "6.6.2", "6.6.5", "6.6.7", "6.6.9", "6.6.11", "6.7.*", "6.9.*", "6.11.*", "6.22.*", "6.23.*",
        "7.1.1",  // a message echoed, then a close
        "9.*",  // throughput of echoed messages up to 16 MB
        "10.*",  // auto-fragmentation of an echoed message
        "12.*", "13.*",  // permessage-deflate: the client offers none (no exchange needs it)
    ]
    static let accepted: Set<String> = ["OK", "NON-STRICT", "INFORMATIONAL"]

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: wstest), "Autobahn|Testsuite is not installed (.venv-autobahn needs Python 2.7)"),
        .timeLimit(.minutes(5))
    )
    func everyCaseThatNeedsNoEchoPasses() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("sise-autobahn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let logger = Logger(label: "autobahn")
        let (server, base, count) = try await Self.startFuzzingServer(in: work, logger: logger)
        // Its reactor lingers on SIGTERM: it is killed.
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        #expect(count > 100, "only \(count) cases")
        var notText: [Int] = []
        var hung: [Int] = []
        for number in 1...count {
            let url = try #require(URL(string: "\(base)/runCase?case=\(number)&agent=sise"))
            let outcome = await Self.run(url, logger: logger)
            if outcome.hung { hung.append(number) }
            if outcome.textThatIsNotUTF8 { notText.append(number) }
        }
        #expect(hung.isEmpty, "cases the client hung on: \(hung)")
        #expect(notText.isEmpty, "cases where text that is not UTF-8 was handed over as data: \(notText)")
        let update = try #require(URL(string: "\(base)/updateReports?agent=sise"))
        _ = await Self.run(update, logger: logger)

        let index = work.appendingPathComponent("reports/index.json")
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: index)) as? [String: [String: [String: Any]]])
        let results = try #require(reports["sise"])
        #expect(results.count == count)
        let failed = results.filter {
            !Self.accepted.contains($0.value["behavior"] as? String ?? "") || !Self.accepted.contains($0.value["behaviorClose"] as? String ?? "")
        }
        .map { "\($0.key): \($0.value["behavior"] ?? "-")/\($0.value["behaviorClose"] ?? "-")" }.sorted()
        #expect(failed.isEmpty, "\(failed.count) cases: \(failed)")
    }

    struct Outcome {
        var hung = false
        var textThatIsNotUTF8 = false
    }

    /// One connection, read to its end (ten seconds at most, then it is closed and counted as hung).
    static func run(_ url: URL, logger: Logger) async -> Outcome {
        let outcome = OutcomeBox()
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = try? await UpstreamWebSocket.connect(
                    to: url,
                    options: .init(connectTimeout: .seconds(5), handshakeTimeout: .seconds(5)),
                    logger: logger
                ) { connection in
                    try await connection.read { message in
                        if case .text(let buffer) = message, String(validating: buffer.readableBytesView, as: UTF8.self) == nil {
                            outcome.markNotText()
                        }
                    }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        return Outcome(hung: !finished, textThatIsNotUTF8: outcome.notText)
    }

    final class OutcomeBox: @unchecked Sendable {
        // @unchecked: one flag behind a lock, set from the socket's event loop.
        private let lock = NSLock()
        private var flag = false
        func markNotText() { lock.withLock { flag = true } }
        var notText: Bool { lock.withLock { flag } }
    }

    /// The fuzzingserver on a port nobody listened on a moment ago, and its number of cases once it
    /// answers. Python 2.7 and Twisted start slowly on a loaded machine (over 30 s was seen in CI),
    /// so it has two minutes in all; a server that exits first (its port taken between the look and the
    /// bind) is started again on another port, and one that never answers fails with what it wrote.
    static func startFuzzingServer(in work: URL, logger: Logger) async throws -> (Process, String, Int) {
        var lastWords = ""
        let deadline = ContinuousClock.now + .seconds(120)
        for attempt in 1...3 where ContinuousClock.now < deadline {
            let base = "ws://127.0.0.1:\(try await freePort())"
            let spec: [String: Any] = [
                "url": base, "outdir": work.appendingPathComponent("reports").path, "cases": ["*"],
                "exclude-cases": needsAnEcho, "exclude-agent-cases": [String: String](),
            ]
            let specFile = work.appendingPathComponent("fuzzingserver.json")
            try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
            let errors = work.appendingPathComponent("fuzzingserver-\(attempt).log")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let server = Process()
            server.executableURL = URL(fileURLWithPath: wstest)
            server.arguments = ["-m", "fuzzingserver", "-s", specFile.path, "--webport", "0"]
            server.currentDirectoryURL = work
            server.standardOutput = FileHandle.nullDevice
            server.standardError = try FileHandle(forWritingTo: errors)
            try server.run()
            if let count = try await caseCount(base, while: server, until: deadline, logger: logger) { return (server, base, count) }
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
            lastWords = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        }
        Issue.record("the fuzzingserver never answered: \(lastWords.suffix(2_000))")
        throw CancellationError()
    }

    /// The fuzzingserver's number of cases (it says so in one text message) once it listens; nil
    /// when it exits first or stays silent until the deadline.
    static func caseCount(_ base: String, while server: Process, until deadline: ContinuousClock.Instant, logger: Logger) async throws -> Int? {
        let url = try #require(URL(string: "\(base)/getCaseCount"))
        while server.isRunning, ContinuousClock.now < deadline {
            let count = CountBox()
            let answered: Void? = try? await UpstreamWebSocket.connect(to: url, logger: logger) { connection in
                _ = try await connection.read { message in
                    if case .text(let buffer) = message, let value = Int(String(buffer: buffer)) { count.value = value }
                }
            }
            if answered != nil, let value = count.value { return value }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    final class CountBox: @unchecked Sendable {
        // @unchecked: written once from the socket's event loop before the reader returns.
        private let lock = NSLock()
        private var stored: Int?
        var value: Int? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// A port nobody listens on now (bound, read and let go).
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
