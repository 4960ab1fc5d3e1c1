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
    static func open(
        host: String,
        port: Int,
        path: String,
        group: any EventLoopGroup,
        histogram: LatencyHistogram,
        published: LatencyHistogram,
        counters: Counters,
        protocol wire: Wire = .sise,
        measures: Bool = true
    ) async throws {
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
                            NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 0,
                                maxAccumulatedFrameCount: 1_024,
                                maxAccumulatedFrameSize: 1 << 22
                            )
                        )
                        try channel.pipeline.syncOperations.addHandler(
                            LoadFrameHandler(histogram: histogram, published: published, counters: counters, wire: wire, measures: measures)
                        )
                        return true
                    }
                }
                let configuration = NIOTypedHTTPClientUpgradeConfiguration<Bool>(upgradeRequestHead: head, upgraders: [upgrader]) { channel in
                    channel.eventLoop.makeCompletedFuture { false }
                }
                // What came in the same read as the 101 is the first frames (nchan and the floor push
                // at once): kept for the WebSocket decoder. NIO's default drops it, and a frame cut
                // there left the page reading a header where none starts (`fragmentedControlFrame`).
                var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                pipeline.leftOverBytesStrategy = .forwardBytes
                let upgrade = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
                return (channel, upgrade)
            }
        }
        guard try await upgraded.1.get() else { throw Refused() }
        // Only now are the HTTP handlers gone: the view goes out as a WebSocket frame.
        let channel = upgraded.0
        if let message = wire.firstMessage {
            let first = WebSocketFrame(
                fin: true,
                opcode: wire == .sise ? .text : .binary,
                maskKey: .random(),
                data: channel.allocator.buffer(string: message)
            )
            try await channel.writeAndFlush(first)
        }
        counters.connect()
    }

    /// What the client speaks: Sise's `/ws` (a view, then messages), NATS over WebSocket (a
    /// peer: `CONNECT` and `SUB`, then `MSG` lines; `PING` answered with `PONG`), or nothing at
    /// all (a peer that pushes Sise's messages as they are: nchan's subscriber, the bare-write floor).
    enum Wire: Sendable, Equatable {
        case sise
        case nats(subject: String)
        case raw

        var firstMessage: String? {
            switch self {
            case .sise: LoadFrameHandler.view
            case .nats(let subject): "CONNECT {\"verbose\":false,\"pedantic\":false,\"protocol\":1}\r\nSUB \(subject) 1\r\n"
            case .raw: nil
            }
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "the WebSocket upgrade was refused" }
    }
}

/// Counts messages and, on the pages that measure (`measures`), records the `"ts"` of every
/// patch row (NATS: every `MSG`, and the `"ts"` of the Sise messages it carries).
final class LoadFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    static let view = #"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#
    private let histogram: LatencyHistogram
    /// Sise's rows timed from their patch's `"at"` (when the hub published it), as the peers'
    /// rows are timed from their publisher's request.
    private let published: LatencyHistogram
    private let counters: Counters
    private let wire: LoadConnection.Wire
    /// Whether this page's latencies are recorded: every page reads and counts every message,
    /// a sample of them also finds each row's `"ts"` (at 20,000 pages, scanning every row of
    /// every page made the generator, on its one core, the bottleneck it was measuring).
    private let measures: Bool
    private var nats = NATSReader()

    init(histogram: LatencyHistogram, published: LatencyHistogram, counters: Counters, wire: LoadConnection.Wire = .sise, measures: Bool = true) {
        self.histogram = histogram
        self.published = published
        self.counters = counters
        self.wire = wire
        self.measures = measures
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where wire == .sise, .text where wire == .raw, .binary where wire == .raw:
            counters.frame()
            guard measures else { break }
            let (stamps, at) = frame.unmaskedData.withUnsafeReadableBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                return (SiseLoad.timestamps(in: bytes), wire == .sise ? SiseLoad.publishedAt(bytes) : nil)
            }
            guard !stamps.isEmpty else { break }
            let now = SiseLoad.epochMilliseconds()
            histogram.record(timestamps: stamps, now: now)
            if let at { published.record(stamp: at, count: stamps.count, now: now) }
        case .text, .binary:
            guard case .nats = wire else { break }
            let measures = measures
            let (messages, pings, stamps) = frame.unmaskedData.withUnsafeReadableBytes { raw in
                nats.read(raw.bindMemory(to: UInt8.self), stamps: measures)
            }
            counters.frames(messages)
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

/// Reads the NATS protocol from a connection's WebSocket frames: counts `MSG`s and `PING`s and
/// finds the `"ts"` of the Sise rows in the payloads. A payload is skipped by its stated size (not
/// scanned byte by byte), and a line or payload cut by a frame's end carries over to the next.
struct NATSReader {
    /// Bytes of a `MSG`'s payload and its CRLF still to come.
    private var payloadLeft = 0
    /// The start of a protocol line a frame ended in.
    private var partialLine: [UInt8] = []

    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, stamps wanted: Bool) -> (messages: Int, pings: Int, stamps: [Int64]) {
        guard let base = bytes.baseAddress else { return (0, 0, []) }
        var messages = 0
        var pings = 0
        var stamps: [Int64] = []
        var i = 0
        while i < bytes.count {
            if payloadLeft > 0 {
                let n = min(payloadLeft, bytes.count - i)
                if wanted { stamps += SiseLoad.stamps(in: UnsafeBufferPointer(rebasing: bytes[i..<(i + n)])) }
                payloadLeft -= n
                i += n
                continue
            }
            guard let hit = memchr(base + i, Int32(UInt8(ascii: "\n")), bytes.count - i) else {
                partialLine += bytes[i...]
                break
            }
            let end = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            var line = partialLine
            line += bytes[i..<end]
            partialLine = []
            i = end + 1
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.starts(with: Array("MSG ".utf8)) {
                messages += 1
                // MSG <subject> <sid> [reply-to] <#bytes>
                let size = line.split(separator: UInt8(ascii: " ")).last.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
                payloadLeft = size + 2
            } else if line.starts(with: Array("PING".utf8)) {
                pings += 1
            }
        }
        return (messages, pings, stamps)
    }
}
