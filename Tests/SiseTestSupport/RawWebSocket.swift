import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A `/ws` client at the byte level: the upgrade written by hand, masked frames, and every way a
/// page can leave — a close frame, a plain TCP close, or a reset (SO_LINGER 0) — at any moment,
/// mid-message included. For tests that churn thousands of pages; it keeps only a count of the
/// bytes it received and their first 4 KB (the upgrade's answer) unless asked to keep them all.
public final class RawWebSocket: Sendable {
    private let channel: any Channel
    private let received: NIOLockedValueBox<(count: Int, head: [UInt8])>

    private init(channel: any Channel, received: NIOLockedValueBox<(count: Int, head: [UInt8])>) {
        self.channel = channel
        self.received = received
    }

    /// Connects and sends the upgrade request (not waiting for its answer).
    /// - Parameters:
    ///   - deflate: offers permessage-deflate as browsers do.
    ///   - receiveBuffer: the socket's receive buffer (SO_RCVBUF), for a page whose socket fills.
    ///   - keepAll: keeps every byte received (`messages`), not only the first 4 KB.
    public static func open(
        port: Int,
        path: String = "/ws",
        deflate: Bool = false,
        headers: [String: String] = [:],
        receiveBuffer: Int? = nil,
        keepAll: Bool = false
    ) async throws -> RawWebSocket {
        let received = NIOLockedValueBox((count: 0, head: [UInt8]()))
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let receiveBuffer { bootstrap = bootstrap.channelOption(ChannelOptions.socketOption(.so_rcvbuf), value: receiveBuffer) }
        let channel =
            try await bootstrap
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Counter(received: received, limit: keepAll ? .max : 4_096))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request +=
            "Sec-WebSocket-Key: \(Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n"
        if deflate { request += "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n" }
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try await channel.writeAndFlush(ByteBuffer(string: request + "\r\n"))
        return RawWebSocket(channel: channel, received: received)
    }

    /// Bytes received so far (the upgrade's answer included).
    public var receivedBytes: Int { received.withLockedValue { $0.count } }

    /// The start of what was received, as text (the upgrade's status line and headers).
    public var head: String { received.withLockedValue { String(decoding: $0.head, as: UTF8.self) } }

    /// Whether the upgrade's answer has arrived in full (its blank line), found in the bytes: a
    /// `String` search would see the frame bytes after it as part of the last character.
    private var headComplete: Bool {
        received.withLockedValue { state in
            state.head.indices.dropLast(3).contains { state.head[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }
        }
    }

    /// The server's frames after the upgrade's answer, as (opcode, payload): those within the
    /// first 4 KB received (enough for the short exchanges of a refusal), or all of them when the
    /// socket was opened with `keepAll`.
    public var frames: [(opcode: UInt8, payload: [UInt8])] {
        received.withLockedValue { state in
            let bytes = state.head
            guard let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) else { return [] }
            var frames: [(UInt8, [UInt8])] = []
            var at = end + 4
            while at + 2 <= bytes.count {
                var length = Int(bytes[at + 1] & 0x7F)
                var start = at + 2
                if length == 126, start + 2 <= bytes.count {
                    length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                    start += 2
                } else if length == 127, start + 8 <= bytes.count {
                    length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
                    start += 8
                } else if length >= 126 {
                    break
                }
                guard start + length <= bytes.count else { break }
                frames.append((bytes[at] & 0x0F, Array(bytes[start..<start + length])))
                at = start + length
            }
            return frames
        }
    }

    /// The server's text messages, in order (see `frames`).
    public var texts: [String] {
        frames.filter { $0.opcode == 0x1 }.map { String(decoding: $0.payload, as: UTF8.self) }
    }

    /// Stops reading from the socket (its buffer fills and the server's writes back up), or
    /// starts again.
    public func reading(_ on: Bool) async throws {
        try await channel.setOption(ChannelOptions.autoRead, value: on).get()
        if on { channel.read() }
    }

    /// The code of the server's close frame, when one came.
    public var closeCode: UInt16? {
        frames.first { $0.opcode == 0x8 && $0.payload.count >= 2 }.map { UInt16($0.payload[0]) << 8 | UInt16($0.payload[1]) }
    }

    /// Whether the connection is still open.
    public var isOpen: Bool { channel.isActive }

    /// Waits until at least `count` bytes have arrived or the connection has closed; false at
    /// the timeout.
    @discardableResult
    public func waitFor(bytes count: Int, timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if receivedBytes >= count || !channel.isActive { return receivedBytes >= count }
            try await Task.sleep(for: .milliseconds(5))
        }
        return false
    }

    /// Waits for the upgrade's answer; true when it was `101 Switching Protocols`.
    public func upgraded(timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if headComplete || !channel.isActive { break }
            try await Task.sleep(for: .milliseconds(5))
        }
        return head.hasPrefix("HTTP/1.1 101")
    }

    /// A masked text frame (RFC 6455 §5.2).
    public func send(text: String) async throws {
        try await channel.writeAndFlush(Self.frame(opcode: 0x1, payload: Array(text.utf8)))
    }

    /// A close frame with `code`, then the TCP connection closed from this side.
    public func close(code: UInt16 = 1_000) async {
        let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        try? await channel.writeAndFlush(Self.frame(opcode: 0x8, payload: payload))
        try? await channel.close()
    }

    /// The TCP connection closed without a close frame (FIN).
    public func drop() async {
        try? await channel.close()
    }

    /// The TCP connection reset (RST: SO_LINGER with a zero timeout, then close).
    public func reset() async {
        if let options = channel as? any SocketOptionProvider {
            try? await options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
    }

    /// Any frame, rule-breaking ones included: `first` is the FIN/RSV/opcode byte as sent.
    public func send(first: UInt8, payload: [UInt8], masked: Bool = true) async throws {
        try await channel.writeAndFlush(Self.frame(first: first, payload: payload, masked: masked))
    }

    static func frame(opcode: UInt8, payload: [UInt8]) -> ByteBuffer {
        frame(first: 0x80 | opcode, payload: payload, masked: true)
    }

    static func frame(first: UInt8, payload: [UInt8], masked: Bool) -> ByteBuffer {
        var frame = ByteBuffer()
        frame.writeInteger(first)
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            frame.writeInteger(UInt8(maskBit | UInt8(payload.count)))
        } else {
            frame.writeInteger(UInt8(maskBit | 126))
            frame.writeInteger(UInt16(payload.count))
        }
        guard masked else {
            frame.writeBytes(payload)
            return frame
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame.writeBytes(mask)
        frame.writeBytes(payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
        return frame
    }

    private final class Counter: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: NIOLockedValueBox<(count: Int, head: [UInt8])>
        let limit: Int
        init(received: NIOLockedValueBox<(count: Int, head: [UInt8])>, limit: Int) {
            self.received = received
            self.limit = limit
        }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLockedValue { state in
                state.count += buffer.readableBytes
                if state.head.count < limit { state.head += buffer.readableBytesView.prefix(limit - state.head.count) }
            }
        }
    }
}
