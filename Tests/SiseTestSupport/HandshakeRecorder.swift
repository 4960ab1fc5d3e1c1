import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A raw TCP server on 127.0.0.1 that records the request head each client sends, byte for
/// byte, answers with a canned HTTP response and closes. It shows what goes on the wire — the
/// headers a client library adds on its own included.
public final class HandshakeRecorder: Sendable {
    private let channel: any Channel
    private let recorded: NIOLockedValueBox<[String]>
    public let port: Int

    /// - Parameter response: the raw HTTP response written after each request head; empty:
    ///   none at all — the connection stays open and silent (a stalled handshake).
    public static func start(response: String) async throws -> HandshakeRecorder {
        let recorded = NIOLockedValueBox<[String]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(Handler(response: response, recorded: recorded))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return HandshakeRecorder(channel: channel, recorded: recorded, port: channel.localAddress?.port ?? 0)
    }

    private init(channel: any Channel, recorded: NIOLockedValueBox<[String]>, port: Int) {
        self.channel = channel
        self.recorded = recorded
        self.port = port
    }

    /// Every request head received so far, as text.
    public var requests: [String] { recorded.withLockedValue { $0 } }

    /// The header names of every request, lower-cased.
    public var headerNames: [[String]] {
        requests.map { head in
            head.split(separator: "\r\n").dropFirst().compactMap { line in
                line.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() }
            }
        }
    }

    public func stop() async {
        try? await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let response: String
        let recorded: NIOLockedValueBox<[String]>
        var received = ""

        init(response: String, recorded: NIOLockedValueBox<[String]>) {
            self.response = response
            self.recorded = recorded
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            received += buffer.readString(length: buffer.readableBytes) ?? ""
            guard let end = received.range(of: "\r\n\r\n") else { return }
            let head = String(received[..<end.lowerBound])
            recorded.withLockedValue { $0.append(head) }
            received = ""
            guard !response.isEmpty else { return }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: response))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }
}
