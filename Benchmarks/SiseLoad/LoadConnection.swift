import Foundation
import NIOCore
import NIOPosix

/// One browser-protocol `/ws` client written as one NIO channel handler that reads the bytes
/// itself: the handshake's answer, then each frame where it lies in what was read — no HTTP
/// codec, no frame decoder or aggregator, no frame value per message. A message costs the load
/// generator a header's few bytes, so it reads what the servers write at 10,000 pages and more
/// (with NIO's WebSocket pipeline it could not: its own reading became most of the latency it
/// reported, and pages it had not read yet made Sise merge).
enum LoadConnection {
    /// Connects, upgrades and sends the first message; the handler then counts every message
    /// (no task stays behind once this returns).
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
        let channel = try await bootstrap.connect(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let reader = LoadFrameHandler(
                    histogram: histogram,
                    published: published,
                    counters: counters,
                    wire: wire,
                    measures: measures,
                    handshake: channel.eventLoop.makePromise()
                )
                try channel.pipeline.syncOperations.addHandler(reader)
                return channel
            }
        }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        let answered = try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Bool> in
            let reader = try? channel.pipeline.syncOperations.handler(type: LoadFrameHandler.self)
            guard let reader else { return channel.eventLoop.makeFailedFuture(Refused()) }
            channel.writeAndFlush(channel.allocator.buffer(string: request), promise: nil)
            // A server that never answers is given up on as a connection that timed out.
            channel.eventLoop.assumeIsolated().scheduleTask(in: .seconds(30)) { reader.giveUp() }
            return reader.handshakeDone
        }.get()
        guard answered else {
            try? await channel.close()
            throw Refused()
        }
        if let message = wire.firstMessage {
            try await channel.writeAndFlush(
                LoadFrameHandler.clientFrame(opcode: wire == .sise ? 0x1 : 0x2, Array(message.utf8), allocator: channel.allocator)
            )
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

/// Reads a connection: the handshake's answer (101 or not), then every frame in place. Counts
/// messages and, on the pages that measure (`measures`), records the `"ts"` of every patch row
/// (NATS: every `MSG`, and the `"ts"` of the Sise messages it carries) and a patch's `"at"`.
final class LoadFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let view = #"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","favoritesOnly":false,"lang":"ko"}"#
    private let histogram: LatencyHistogram
    /// Rows timed from their patch's `"at"`: Sise's hub published it then, a peer's publisher
    /// handed it over then (their `"ts"`: when it was due).
    private let published: LatencyHistogram
    private let counters: Counters
    private let wire: LoadConnection.Wire
    /// Whether this page's latencies are recorded: every page reads and counts every message,
    /// a sample of them also finds each row's `"ts"` (at 20,000 pages, scanning every row of
    /// every page made the generator, on its one core, the bottleneck it was measuring).
    private let measures: Bool
    private var nats = NATSReader()
    /// What was read and not yet used: the handshake's answer, then a frame cut by a read's end.
    private var held: ByteBuffer?
    /// Succeeds with whether the server answered 101 (false: another answer, or none in time).
    private let handshake: EventLoopPromise<Bool>
    private var answered = false
    private var upgraded = false

    init(
        histogram: LatencyHistogram,
        published: LatencyHistogram,
        counters: Counters,
        wire: LoadConnection.Wire,
        measures: Bool,
        handshake: EventLoopPromise<Bool>
    ) {
        self.histogram = histogram
        self.published = published
        self.counters = counters
        self.wire = wire
        self.measures = measures
        self.handshake = handshake
    }

    var handshakeDone: EventLoopFuture<Bool> { handshake.futureResult }

    /// No answer in time: the connection counts as refused (a no-op once answered).
    func giveUp() { answer(false) }

    private func answer(_ upgraded: Bool) {
        guard !answered else { return }
        answered = true
        handshake.succeed(upgraded)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if var kept = held {
            kept.writeBuffer(&bytes)
            bytes = kept
            held = nil
        }
        if !upgraded {
            guard let head = Self.headLength(bytes) else {
                held = bytes
                return
            }
            let status = bytes.getString(at: bytes.readerIndex, length: min(12, head)) ?? ""
            guard status == "HTTP/1.1 101" else {
                answer(false)
                context.close(promise: nil)
                return
            }
            bytes.moveReaderIndex(forwardBy: head)
            upgraded = true
            answer(true)
        }
        while let frame = Self.frame(at: bytes) {
            if frame.fin {
                bytes.withUnsafeReadableBytes { raw in
                    let payload = UnsafeRawBufferPointer(rebasing: raw[frame.header..<(frame.header + frame.length)])
                    take(opcode: frame.opcode, payload.bindMemory(to: UInt8.self), context: context)
                }
            }
            bytes.moveReaderIndex(forwardBy: frame.header + frame.length)
        }
        if bytes.readableBytes > Self.maxHeld {
            // A frame (or an answer) larger than any server sends here: the page ends, not the memory.
            counters.fail("over \(Self.maxHeld) bytes without a whole frame")
            context.close(promise: nil)
            return
        }
        if bytes.readableBytes > 0 {
            bytes.discardReadBytes()
            held = bytes
        }
    }

    /// The most a page keeps of a frame not yet whole (NIO's aggregator was given the same 4 MB).
    static let maxHeld = 1 << 22

    /// One whole message (servers do not fragment theirs; a fragment's end counts as one).
    private func take(opcode: UInt8, _ payload: UnsafeBufferPointer<UInt8>, context: ChannelHandlerContext) {
        switch opcode {
        case 0x0, 0x1, 0x2:
            if case .nats = wire {
                let (messages, pings, stamps) = nats.read(payload, stamps: measures)
                counters.frames(messages)
                if !stamps.isEmpty { histogram.record(timestamps: stamps, now: SiseLoad.epochMilliseconds()) }
                for _ in 0..<pings {
                    context.writeAndFlush(
                        wrapOutboundOut(Self.clientFrame(opcode: 0x2, Array("PONG\r\n".utf8), allocator: context.channel.allocator)),
                        promise: nil
                    )
                }
                return
            }
            counters.frame()
            guard measures else { return }
            let stamps = SiseLoad.timestamps(in: payload)
            guard !stamps.isEmpty else { return }
            let now = SiseLoad.epochMilliseconds()
            histogram.record(timestamps: stamps, now: now)
            // Sise's patch: when the hub published it; a peer's: when its publisher handed it over.
            if let at = SiseLoad.publishedAt(payload) { published.record(stamp: at, count: stamps.count, now: now) }
        case 0x9:
            context.writeAndFlush(wrapOutboundOut(Self.clientFrame(opcode: 0xA, Array(payload), allocator: context.channel.allocator)), promise: nil)
        case 0x8:
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        answer(false)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        counters.fail("\(error)")
        answer(false)
        context.close(promise: nil)
    }

    /// The length of the handshake's answer (up to its blank line), once all of it is in.
    static func headLength(_ bytes: ByteBuffer) -> Int? {
        bytes.withUnsafeReadableBytes { raw -> Int? in
            guard raw.count >= 4 else { return nil }
            for i in 0...(raw.count - 4) where raw[i] == 13 && raw[i + 1] == 10 && raw[i + 2] == 13 && raw[i + 3] == 10 { return i + 4 }
            return nil
        }
    }

    /// The frame at the start of `bytes`, if all of it is there: its header's length, payload's
    /// length, opcode and FIN bit (a server's frames are not masked; a mask is skipped).
    static func frame(at bytes: ByteBuffer) -> (header: Int, length: Int, opcode: UInt8, fin: Bool)? {
        bytes.withUnsafeReadableBytes { raw -> (header: Int, length: Int, opcode: UInt8, fin: Bool)? in
            guard raw.count >= 2 else { return nil }
            var header = 2
            var length = Int(raw[1] & 0x7f)
            if length == 126 {
                guard raw.count >= 4 else { return nil }
                length = Int(raw[2]) << 8 | Int(raw[3])
                header = 4
            } else if length == 127 {
                guard raw.count >= 10 else { return nil }
                var value: UInt64 = 0
                for i in 2..<10 { value = value << 8 | UInt64(raw[i]) }
                guard value < UInt64(Int32.max) else { return nil }
                length = Int(value)
                header = 10
            }
            if raw[1] & 0x80 != 0 { header += 4 }
            guard raw.count >= header + length else { return nil }
            return (header, length, raw[0] & 0x0f, raw[0] & 0x80 != 0)
        }
    }

    /// One frame from the client, masked (RFC 6455 §5.3).
    static func clientFrame(opcode: UInt8, _ payload: [UInt8], allocator: ByteBufferAllocator) -> ByteBuffer {
        var frame = allocator.buffer(capacity: payload.count + 14)
        frame.writeInteger(0x80 | opcode)
        if payload.count < 126 {
            frame.writeInteger(UInt8(0x80 | payload.count))
        } else if payload.count <= 0xffff {
            frame.writeInteger(UInt8(0x80 | 126))
            frame.writeInteger(UInt16(payload.count))
        } else {
            frame.writeInteger(UInt8(0x80 | 127))
            frame.writeInteger(UInt64(payload.count))
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame.writeBytes(mask)
        frame.writeBytes(payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
        return frame
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
