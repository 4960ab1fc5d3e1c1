import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// One browser-protocol `/ws` client written as a NIO channel handler: no task and no async
/// sequence per client, so reading a message costs the load generator a few microseconds and
/// the figures stay the server's (an async client per connection made the generator itself the
/// bottleneck above a few thousand pages).
enum LoadConnection {
    /// Connects, upgrades and sends the view; the handler then counts every message (no task
    /// stays behind once this returns).
    static func open(host: String, port: Int, path: String, group: any EventLoopGroup,
                     histogram: LatencyHistogram, counters: Counters, protocol wire: Wire = .sise) async throws {
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(.seconds(30))
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
        let upgraded = try await bootstrap.connect(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                var headers = HTTPHeaders()
                headers.add(name: "Host", value: "\(host):\(port)")
                let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
                let upgrader = NIOTypedWebSocketClientUpgrader<Bool>(maxFrameSize: 1 << 22) { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1_024,
                                                        maxAccumulatedFrameSize: 1 << 22))
                        try channel.pipeline.syncOperations.addHandler(LoadFrameHandler(histogram: histogram, counters: counters, wire: wire))
                        return true
                    }
                }
                let configuration = NIOTypedHTTPClientUpgradeConfiguration<Bool>(upgradeRequestHead: head, upgraders: [upgrader]) { channel in
                    channel.eventLoop.makeCompletedFuture { false }
                }
                let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                    configuration: NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration))
                return (channel, upgrade)
            }
        }
        guard try await upgraded.1.get() else { throw Refused() }
        // Only now are the HTTP handlers gone: the view goes out as a WebSocket frame.
        let channel = upgraded.0
        let first = WebSocketFrame(fin: true, opcode: wire == .sise ? .text : .binary, maskKey: .random(),
                                   data: channel.allocator.buffer(string: wire.firstMessage))
        try await channel.writeAndFlush(first)
        counters.connect()
    }

    /// What the client speaks: Sise's `/ws` (a view, then messages), or NATS over WebSocket (the
    /// peer: `CONNECT` and `SUB`, then `MSG` lines; `PING` answered with `PONG`).
    enum Wire: Sendable, Equatable {
        case sise
        case nats(subject: String)

        var firstMessage: String {
            switch self {
            case .sise: LoadFrameHandler.view
            case .nats(let subject): "CONNECT {\"verbose\":false,\"pedantic\":false,\"protocol\":1}\r\nSUB \(subject) 1\r\n"
            }
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "the WebSocket upgrade was refused" }
    }
}

/// Counts messages and records the `"ts"` of every patch row (NATS: every `MSG`, and the `"ts"`
/// of the Sise messages it carries).
final class LoadFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    static let view = #"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#
    private let histogram: LatencyHistogram
    private let counters: Counters

    private let wire: LoadConnection.Wire

    init(histogram: LatencyHistogram, counters: Counters, wire: LoadConnection.Wire = .sise) {
        self.histogram = histogram
        self.counters = counters
        self.wire = wire
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where wire == .sise:
            counters.frame()
            let stamps = frame.unmaskedData.withUnsafeReadableBytes { SiseLoad.timestamps(in: $0.bindMemory(to: UInt8.self)) }
            if !stamps.isEmpty { histogram.record(timestamps: stamps, now: SiseLoad.epochMilliseconds()) }
        case .text, .binary:
            guard wire != .sise else { break }
            let (messages, pings, stamps) = frame.unmaskedData.withUnsafeReadableBytes { raw in
                NATSScan.scan(raw.bindMemory(to: UInt8.self))
            }
            for _ in 0..<messages { counters.frame() }
            if !stamps.isEmpty { histogram.record(timestamps: stamps, now: SiseLoad.epochMilliseconds()) }
            for _ in 0..<pings {
                let pong = WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: context.channel.allocator.buffer(string: "PONG\r\n"))
                context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            context.close(promise: nil)
        default:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        counters.fail("\(error)")
        context.close(promise: nil)
    }
}

/// Reads NATS protocol bytes: how many `MSG` lines and `PING`s a frame holds, and the `"ts"` of
/// every Sise row in the payloads (the replayed messages keep Sise's shape).
enum NATSScan {
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (messages: Int, pings: Int, stamps: [Int64]) {
        var messages = 0, pings = 0
        var lineStart = true
        var i = 0
        while i < bytes.count {
            if lineStart, i + 4 <= bytes.count {
                if bytes[i] == UInt8(ascii: "M"), bytes[i + 1] == UInt8(ascii: "S"), bytes[i + 2] == UInt8(ascii: "G"), bytes[i + 3] == UInt8(ascii: " ") {
                    messages += 1
                } else if bytes[i] == UInt8(ascii: "P"), bytes[i + 1] == UInt8(ascii: "I"), bytes[i + 2] == UInt8(ascii: "N"), bytes[i + 3] == UInt8(ascii: "G") {
                    pings += 1
                }
            }
            lineStart = bytes[i] == UInt8(ascii: "\n")
            i += 1
        }
        return (messages, pings, SiseLoad.stamps(in: bytes))
    }
}
