import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// `HTTPTransport` over AsyncHTTPClient: connect/read timeouts, a whole-request deadline,
/// gzip, a body size cap, no redirects, and never an `Origin` header (Upbit throttles requests that carry one
/// to 1 per 10 s). Throws `FeedError`, or `CancellationError` when the caller gave up.
public final class LiveHTTPTransport: HTTPTransport {
    public struct Configuration: Sendable {
        public var connectTimeout: Duration
        public var requestTimeout: Duration
        public var maxBodyBytes: Int
        public var userAgent: String

        public init(
            connectTimeout: Duration = .seconds(5),
            requestTimeout: Duration = .seconds(15),
            maxBodyBytes: Int = 16 << 20,
            userAgent: String = "sise/0.1"
        ) {
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.maxBodyBytes = maxBodyBytes
            self.userAgent = userAgent
        }
    }

    private let client: HTTPClient
    private let configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var http = HTTPClient.Configuration(
            timeout: .init(
                connect: .nanoseconds(Self.nanos(configuration.connectTimeout)),
                read: .nanoseconds(Self.nanos(configuration.requestTimeout))
            ),
            decompression: .enabled(limit: .size(configuration.maxBodyBytes))
        )
        http.httpVersion = .http1Only
        // Exchange APIs never redirect; following one would carry API keys (CoinGecko's header)
        // to whatever host the answer names. A 3xx reaches the client as an unexpected status.
        http.redirectConfiguration = .disallow
        // A refused connection is an answer: said at once, and retried by Sise's own loops with
        // their backoff, not by the library until the connect timeout (a one-shot command against
        // a closed port waited 5 s to say "cannot reach").
        http.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: http)
    }

    /// Closes pooled connections. Call once when the process is done with the network.
    public func shutdown() async {
        try? await client.shutdown()
    }

    public func get(_ url: URL, headers: [(String, String)]) async throws -> HTTPResponseData {
        try await execute(url, method: .GET, headers: headers, body: nil)
    }

    public func post(_ url: URL, headers: [(String, String)], body: Data) async throws -> HTTPResponseData {
        try await execute(url, method: .POST, headers: headers, body: body)
    }

    private func execute(_ url: URL, method: HTTPMethod, headers: [(String, String)], body: Data?) async throws -> HTTPResponseData {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Accept-Encoding", value: "gzip")
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        for (name, value) in headers where name.lowercased() != "origin" {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        let host = url.host ?? url.absoluteString
        do {
            let response = try await client.execute(
                request,
                timeout: .nanoseconds(Self.nanos(configuration.requestTimeout))
            )
            let buffer = try await response.body.collect(upTo: configuration.maxBodyBytes)
            var headerMap: [String: String] = [:]
            for header in response.headers { headerMap[header.name.lowercased()] = header.value }
            return HTTPResponseData(
                status: Int(response.status.code),
                headers: headerMap,
                body: Data(buffer.readableBytesView)
            )
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Self.map(error, host: host)
        }
    }

    static func map(_ error: any Error, host: String) -> FeedError {
        if let error = error as? FeedError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout, .deadlineExceeded, .connectTimeout, .writeTimeout:
                return .timeout
            default:
                break
            }
        }
        if error is NIOTooManyBytesError {
            return .malformedPayload(context: "response body too large")
        }
        return .unreachable(host: host, reason: String(describing: error))
    }

    private static func nanos(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
