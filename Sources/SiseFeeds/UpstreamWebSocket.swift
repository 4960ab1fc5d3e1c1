import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Opens a client WebSocket to an exchange, on SwiftNIO directly, so the upgrade request carries
/// exactly the headers written here: `Host`, the WebSocket handshake and a `User-Agent` — never
/// `Origin`. (Upbit puts any request carrying `Origin` in a group limited to 1 per 10 s; the
/// general-purpose WebSocket client adds one that cannot be removed.) A refused upgrade comes
/// back as a typed `FeedError` built from the status and headers of the refusal.
public enum UpstreamWebSocket {
    public struct Options: Sendable {
        public var connectTimeout: Duration
        /// From TCP connect to the server's 101 (a server that accepts TCP and then says nothing).
        public var handshakeTimeout: Duration
        public var maxFrameSize: Int
        public var userAgent: String
        /// More request headers; an `Origin` among them is dropped.
        public var headers: [(String, String)]
        /// Once upgraded, the socket is read when the consumer collects
        /// (`UpstreamWebSocketConnection.collect`) and otherwise at most once per this interval;
        /// nil reads every frame as it lands.
        public var readPacing: Duration?
        /// Counts the socket's reads.
        public var readCounter: SocketReadCounter?

        public init(
            connectTimeout: Duration = .seconds(5),
            handshakeTimeout: Duration = .seconds(10),
            maxFrameSize: Int = 1 << 20,
            userAgent: String = "sise/0.1",
            headers: [(String, String)] = [],
            readPacing: Duration? = nil,
            readCounter: SocketReadCounter? = nil
        ) {
            self.connectTimeout = connectTimeout
            self.handshakeTimeout = handshakeTimeout
            self.maxFrameSize = maxFrameSize
            self.userAgent = userAgent
            self.headers = headers
            self.readPacing = readPacing
            self.readCounter = readCounter
        }
    }

    /// The server answered the upgrade with something other than 101.
    public struct Refusal: Error, Sendable {
        /// The refusal in the feeds' terms (429 and 418 carry their waits).
        public var error: FeedError
        /// The rate-limit group of `Remaining-Req`, when the answer named one.
        public var group: RateLimitGroup?
    }

    struct Upgraded: Sendable {
        let channel: any Channel
        let frames: NIOLoopBound<UpstreamFrameHandler>
        let pacer: NIOLoopBound<ReadPacer>?
        let closed: EventLoopFuture<WebSocketErrorCode?>
    }

    enum Upgrade: Sendable {
        case upgraded(Upgraded, HTTPResponseHead)
        case refused(EventLoopFuture<HTTPResponseHead?>)
    }

    /// Connects, upgrades, runs `body` with the open connection and closes it when `body` returns
    /// or throws.
    public static func connect<Result: Sendable>(
        to url: URL,
        options: Options = .init(),
        logger: Logger,
        _ body: @Sendable (UpstreamWebSocketConnection) async throws -> Result
    ) async throws -> Result {
        let target = try Target(url)
        let upgrade = try await handshake(target, options: options)
        switch upgrade {
        case .refused(let headFuture):
            let head = try? await headFuture.get()
            throw refusal(head, host: target.host)
        case .upgraded(let upgraded, let head):
            if let remaining = head.headers.first(name: "remaining-req") {
                logger.debug("websocket upgraded", metadata: ["remaining-req": "\(remaining)"])
            }
            let connection = UpstreamWebSocketConnection(
                channel: upgraded.channel,
                frames: upgraded.frames,
                pacer: upgraded.pacer,
                closed: upgraded.closed,
                reply: head
            )
            do {
                let result = try await body(connection)
                try? await upgraded.channel.close()
                return result
            } catch {
                try? await upgraded.channel.close()
                throw error
            }
        }
    }

    /// Host, port, path and TLS of a `ws://` or `wss://` URL.
    struct Target {
        let host: String
        let port: Int
        let path: String
        let tls: Bool

        init(_ url: URL) throws {
            guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
                let host = url.host, !host.isEmpty
            else {
                throw FeedError.unreachable(host: url.absoluteString, reason: "not a ws:// or wss:// URL")
            }
            self.host = host
            tls = scheme == "wss"
            port = url.port ?? (tls ? 443 : 80)
            let query = url.query.map { "?\($0)" } ?? ""
            path = (url.path.isEmpty ? "/" : url.path) + query
        }

        /// `Host` with the port only when it is not the scheme's default.
        var hostHeader: String {
            let bracketed = host.contains(":") ? "[\(host)]" : host
            return port == (tls ? 443 : 80) ? bracketed : "\(bracketed):\(port)"
        }
    }

    /// The request head: every header the server will see, in order.
    static func requestHead(_ target: Target, options: Options) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: target.hostHeader)
        headers.add(name: "User-Agent", value: options.userAgent)
        for (name, value) in options.headers where name.lowercased() != "origin" {
            headers.replaceOrAdd(name: name, value: value)
        }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: target.path, headers: headers)
    }

    private static func handshake(_ target: Target, options: Options) async throws -> Upgrade {
        _ = pipelinePrepared
        let sslContext = try target.tls ? clientTLS.get() : nil
        let head = requestHead(target, options: options)
        let maxFrameSize = options.maxFrameSize
        let bootstrap = ClientBootstrap(group: UpstreamLoop.group)
            .connectTimeout(.nanoseconds(Int64(nanoseconds(options.connectTimeout))))
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        let upgradeFuture: EventLoopFuture<Upgrade>
        // The connection, so a handshake that runs out of time (or is cancelled) can be closed:
        // that fails the pending upgrade, which nothing else would ever complete.
        let connection = NIOLockedValueBox<(any Channel)?>(nil)
        do {
            upgradeFuture = try await bootstrap.connect(host: target.host, port: target.port) { channel in
                connection.withLockedValue { $0 = channel }
                return channel.eventLoop.makeCompletedFuture {
                    if let sslContext {
                        let handler = try NIOSSLClientHandler(context: sslContext, serverHostname: target.tlsServerName)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                    return try configurePipeline(
                        channel,
                        head: head,
                        maxFrameSize: maxFrameSize,
                        pacing: options.readPacing,
                        readCounter: options.readCounter
                    )
                }
            }
        } catch {
            throw FeedError.unreachable(host: target.host, reason: String(describing: error))
        }
        return try await withThrowingTaskGroup(of: Upgrade?.self) { group in
            group.addTask { try await upgradeFuture.get() }
            group.addTask {
                try await Task.sleep(for: options.handshakeTimeout)
                return nil
            }
            defer { group.cancelAll() }
            let abandon = { connection.withLockedValue { $0 }?.close(promise: nil) }
            do {
                guard let first = try await group.next(), let upgrade = first else {
                    abandon()
                    throw FeedError.timeout
                }
                return upgrade
            } catch let error as FeedError {
                throw error
            } catch is CancellationError {
                abandon()
                throw CancellationError()
            } catch {
                throw FeedError.unreachable(host: target.host, reason: String(describing: error))
            }
        }
    }

    /// The pipeline set up once, on one thread, before any connection: Swift 6.3's runtime can
    /// dereference a null metadata pointer (in `swift_conformsToProtocol`, under
    /// `configureUpgradableHTTPClientPipeline`'s `ByteToMessageHandler<HTTPResponseDecoder>`) when
    /// several event-loop threads instantiate the same generic handlers' metadata at once — as
    /// every exchange's stream connecting at start-up does. A static is initialised once, the
    /// other threads waiting; after it the metadata is cached and the threads only read it.
    private static let pipelinePrepared: Void = {
        let channel = EmbeddedChannel()
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
        _ = try? configurePipeline(channel, head: head, maxFrameSize: 1 << 16, pacing: .milliseconds(250), readCounter: nil)
        _ = try? channel.finish()
    }()

    /// Sets the pipeline up now, on the calling thread. The program calls it first thing, while
    /// it is the only thread: the lazy set-up at the first connection still raced (once in a
    /// browser-suite run) with an event loop's conformance lookups on other threads.
    public static func prepare() {
        _ = pipelinePrepared
    }

    private static func configurePipeline(
        _ channel: any Channel,
        head: HTTPRequestHead,
        maxFrameSize: Int,
        pacing: Duration?,
        readCounter: SocketReadCounter?
    ) throws -> EventLoopFuture<Upgrade> {
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(
            maxFrameSize: maxFrameSize,
            enableAutomaticErrorHandling: false
        ) { channel, response in
            channel.eventLoop.makeCompletedFuture {
                // The exchange's frames held to RFC 6455 before they are joined and read: a bad
                // one fails the connection (1002, or 1007 for text that is not UTF-8), never data.
                try channel.pipeline.syncOperations.addHandler(WebSocketFrameRules(peer: .server, deflate: false))
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0,
                        maxAccumulatedFrameCount: 1_024,
                        maxAccumulatedFrameSize: maxFrameSize
                    )
                )
                let closed = channel.eventLoop.makePromise(of: WebSocketErrorCode?.self)
                let handler = UpstreamFrameHandler(closed: closed)
                try channel.pipeline.syncOperations.addHandler(handler)
                var pacer: NIOLoopBound<ReadPacer>?
                if let pacing {
                    let paced = ReadPacer(interval: .nanoseconds(Int64(nanoseconds(pacing))), counter: readCounter)
                    try channel.pipeline.syncOperations.addHandler(paced, position: .first)
                    pacer = NIOLoopBound(paced, eventLoop: channel.eventLoop)
                }
                let upgraded = Upgraded(
                    channel: channel,
                    frames: NIOLoopBound(handler, eventLoop: channel.eventLoop),
                    pacer: pacer,
                    closed: closed.futureResult
                )
                return Upgrade.upgraded(upgraded, response)
            }
        }
        let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
            upgradeRequestHead: head,
            upgraders: [upgrader]
        ) { channel in
            // Not upgraded: the response head is handed on once this returns; catch it.
            channel.eventLoop.makeCompletedFuture {
                let promise = channel.eventLoop.makePromise(of: HTTPResponseHead?.self)
                try channel.pipeline.syncOperations.addHandler(RefusalCatcher(promise: promise))
                return Upgrade.refused(promise.futureResult)
            }
        }
        var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
        pipeline.leftOverBytesStrategy = .forwardBytes
        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
    }

    /// The refusal as the error the feeds speak: 429 and 418 with their waits, 5xx, others.
    static func refusal(_ head: HTTPResponseHead?, host: String) -> Refusal {
        guard let head else {
            return Refusal(error: .unreachable(host: host, reason: "the WebSocket upgrade was refused"), group: nil)
        }
        let retryAfter = RetryAfter.parse(head.headers.first(name: "retry-after"))
        let group = head.headers.first(name: "remaining-req").flatMap(RemainingRequests.init(header:))?.group
        switch head.status.code {
        case 429:
            // The group's window: Upbit's `origin` group is 10 s, the others a second.
            let floor: Duration = group == .origin ? .seconds(10) : .seconds(1)
            return Refusal(error: .rateLimited(retryAfter: max(retryAfter ?? floor, floor)), group: group)
        case 418:
            return Refusal(error: .blocked(retryAfter: retryAfter), group: group)
        case 500..<600:
            return Refusal(error: .server(status: Int(head.status.code)), group: group)
        default:
            return Refusal(
                error: .unexpectedStatus(status: Int(head.status.code), message: "WebSocket upgrade refused"),
                group: group
            )
        }
    }

    /// One TLS context for every connection: making one reads the system's trust roots (a few
    /// milliseconds each time a stream that cannot reach its exchange retries).
    private static let clientTLS = Result { try NIOSSLContext(configuration: .makeClientConfiguration()) }

    static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }
}

extension UpstreamWebSocket.Target {
    /// SNI takes a host name, never an address literal.
    var tlsServerName: String? {
        host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : host
    }
}

/// Catches the head of a refused upgrade (and swallows the rest of that response).
private final class RefusalCatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    private let promise: EventLoopPromise<HTTPResponseHead?>
    private var answered = false

    init(promise: EventLoopPromise<HTTPResponseHead?>) {
        self.promise = promise
    }

    private func answer(_ head: HTTPResponseHead?) {
        guard !answered else { return }
        answered = true
        promise.succeed(head)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data) {
            answer(head)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        answer(nil)
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        answer(nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        answer(nil)
        context.close(promise: nil)
    }
}
