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
                     histogram: LatencyHistogram, counters: Counters) async throws {
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
                        try channel.pipeline.syncOperations.addHandler(LoadFrameHandler(histogram: histogram, counters: counters))
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
        let view = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: channel.allocator.buffer(string: LoadFrameHandler.view))
        try await channel.writeAndFlush(view)
        counters.connect()
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "the WebSocket upgrade was refused" }
    }
}

/// Counts messages and records the `"ts"` of every patch row.
final class LoadFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    static let view = #"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#
    private let histogram: LatencyHistogram
    private let counters: Counters

    init(histogram: LatencyHistogram, counters: Counters) {
        self.histogram = histogram
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            counters.frame()
            let stamps = frame.unmaskedData.withUnsafeReadableBytes { SiseLoad.timestamps(in: $0.bindMemory(to: UInt8.self)) }
            if !stamps.isEmpty { histogram.record(timestamps: stamps, now: SiseLoad.epochMilliseconds()) }
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
