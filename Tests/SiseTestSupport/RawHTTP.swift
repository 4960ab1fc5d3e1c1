import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Sends raw bytes to 127.0.0.1:port and returns what comes back until the server closes or
/// `timeout` passes: for requests no well-behaved client library would send.
public enum RawHTTP {
    public static func exchange(port: Int, _ request: String, timeout: Duration = .seconds(5)) async throws -> String {
        let (channel, received) = try await connect(port)
        try await channel.writeAndFlush(ByteBuffer(string: request))
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while channel.isActive && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            let text = received.withLockedValue { String(buffer: $0) }
            if let end = text.range(of: "\r\n\r\n"), Self.complete(text, headEnd: end.upperBound) { break }
        }
        try? await channel.close()
        return received.withLockedValue { String(buffer: $0) }
    }

    /// Sends `head`, then its body `chunk` bytes every `every` (`total` bytes at most) until the
    /// server closes the connection or `limit` passes: what came back, and how long after the head
    /// the server closed it (nil: it did not).
    public static func trickle(
        port: Int,
        head: String,
        chunk: Int = 1,
        every: Duration,
        total: Int = .max,
        limit: Duration
    ) async throws -> (answer: String, closedAfter: Duration?) {
        let (channel, received) = try await connect(port)
        try await channel.writeAndFlush(ByteBuffer(string: head))
        let started = ContinuousClock.now
        var closed: Duration?
        var sent = 0
        while ContinuousClock.now < started.advanced(by: limit) {
            try await Task.sleep(for: every)
            guard channel.isActive else {
                closed = started.duration(to: .now)
                break
            }
            let size = min(chunk, total - sent)
            guard size > 0 else { continue }
            sent += size
            try? await channel.writeAndFlush(ByteBuffer(string: String(repeating: "a", count: size)))
        }
        try? await channel.close()
        return (received.withLockedValue { String(buffer: $0) }, closed)
    }

    /// A connection to 127.0.0.1:port and what it receives.
    private static func connect(_ port: Int) async throws -> (any Channel, NIOLockedValueBox<ByteBuffer>) {
        let received = NIOLockedValueBox(ByteBuffer())
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(received: received))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return (channel, received)
    }

    /// A response with a Content-Length is complete once that many body bytes arrived.
    private static func complete(_ text: String, headEnd: String.Index) -> Bool {
        let head = text[..<headEnd].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return text[headEnd...].utf8.count >= length
    }

    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: NIOLockedValueBox<ByteBuffer>
        init(received: NIOLockedValueBox<ByteBuffer>) { self.received = received }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received.withLockedValue { _ = $0.writeBuffer(&buffer) }
        }
    }
}
