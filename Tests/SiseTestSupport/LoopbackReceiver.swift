import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A bare HTTP endpoint on 127.0.0.1 that answers every request 204 and calls `onRequest` once
/// per request received (a webhook target for tests).
public final class LoopbackReceiver: Sendable {
    public let url: String
    private let channel: any Channel

    private init(channel: any Channel, port: Int) {
        self.channel = channel
        url = "http://127.0.0.1:\(port)/hook"
    }

    public static func start(_ onRequest: @escaping @Sendable () -> Void) async throws -> LoopbackReceiver {
        try await start(bodies: { _ in onRequest() })
    }

    /// The same, handing each request's body to `onBody`.
    public static func start(bodies onBody: @escaping @Sendable (String) -> Void) async throws -> LoopbackReceiver {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Handler(onRequest: onBody)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return LoopbackReceiver(channel: channel, port: channel.localAddress?.port ?? 0)
    }

    public func stop() async {
        try? await channel.close()
    }

    final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let onRequest: @Sendable (String) -> Void
        var received = ""

        init(onRequest: @escaping @Sendable (String) -> Void) {
            self.onRequest = onRequest
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received += buffer.readString(length: buffer.readableBytes) ?? ""
            guard let headerEnd = received.range(of: "\r\n\r\n") else { return }
            let head = received[..<headerEnd.lowerBound].lowercased()
            let length =
                head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            guard received.utf8.count - received[..<headerEnd.upperBound].utf8.count >= length else { return }
            let body = String(received[headerEnd.upperBound...])
            received = ""
            onRequest(body)
            let answer = context.channel.allocator.buffer(string: "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}

/// Counts calls from any task.
public final class HitCounter: Sendable {
    private let hits = Atomic<Int>(0)
    public init() {}
    public func add() { hits.add(1, ordering: .relaxed) }
    public func reset() { hits.store(0, ordering: .relaxed) }
    public var count: Int { hits.load(ordering: .relaxed) }
}

/// Waits until `condition` holds (checked every 20 ms); after `seconds` records an issue at the
/// caller's line, saying what did not happen, and throws.
public func eventually(
    seconds: Double = 10,
    _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("did not happen within \(seconds) s: \(comment)", sourceLocation: sourceLocation)
    struct NeverHappened: Error {}
    throw NeverHappened()
}
