import Foundation
import SiseFeeds
import Synchronization
import Testing

/// The test double of `HTTPTransport` (the live one is `LiveHTTPTransport`): answers only what
/// a test stubbed, by path; any other request is recorded as a test issue and fails with
/// `FeedError.unreachable`, so a client that calls something unexpected cannot pass quietly.
public final class StubTransport: HTTPTransport {
    public typealias Answer = @Sendable (URL) throws -> HTTPResponseData
    private let answers: Mutex<[String: Answer]>
    private let seen = Mutex<[URL]>([])

    public init(_ answers: [String: Answer] = [:]) {
        self.answers = Mutex(answers)
    }

    /// Answers `path` (e.g. `/search/trending`, matched against the URL path's end;
    /// `""` answers every path) with `body`.
    public func stub(_ path: String, status: Int = 200, headers: [String: String] = [:], body: Data) {
        answers.withLock { $0[path] = { _ in HTTPResponseData(status: status, headers: headers, body: body) } }
    }

    /// Answers `path` with whatever `answer` makes of each request.
    public func stub(_ path: String, answer: @escaping Answer) {
        answers.withLock { $0[path] = answer }
    }

    /// Every URL requested, in order.
    public var requests: [URL] { seen.withLock { $0 } }

    /// POSTs are answered like GETs, by path.
    public func post(_ url: URL, headers: [(String, String)], body: Data) async throws -> HTTPResponseData {
        try await get(url, headers: headers)
    }

    public func get(_ url: URL, headers: [(String, String)]) async throws -> HTTPResponseData {
        seen.withLock { $0.append(url) }
        let answer = answers.withLock { answers in
            answers.first { url.path.hasSuffix($0.key) }?.value
        }
        guard let answer else {
            Issue.record("unstubbed request: \(url.absoluteString)")
            throw FeedError.unreachable(host: url.host ?? "?", reason: "not stubbed")
        }
        return try answer(url)
    }
}
