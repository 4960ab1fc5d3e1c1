import NIOCore
import NIOWebSocket

/// RFC 6455's rules for the frames a peer sends, applied as each frame is decoded — before the
/// WebSocket library, which takes frames masked the wrong way, answers a ping with reserved bits,
/// and ends a connection whose fragments are out of order with 1000 instead of failing it. The
/// server's `/ws` holds its pages' frames to them; the upstream client, an exchange's:
/// - a client's frames are masked, a server's never (§5.1); no reserved opcode (§5.2); RSV2/RSV3
///   never, RSV1 only on the first frame of a data message and only under permessage-deflate
///   (RFC 7692 §6);
/// - control frames are final and at most 125 bytes (§5.5); a close frame's code is one a peer
///   may send and its reason UTF-8 (§7.4.1, §8.1);
/// - fragments follow one another: no new message inside one, no continuation outside one (§5.4);
/// - an uncompressed text message is UTF-8 — checked as its fragments arrive (a character may
///   span two) — else the connection fails with 1007 (§8.1).
/// Breaking one closes the connection with 1002 (1007 for text), and nothing more is read.
public final class WebSocketFrameRules: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = WebSocketFrame
    public typealias InboundOut = WebSocketFrame
    public typealias OutboundOut = WebSocketFrame

    /// Who sends the frames read here.
    public enum Peer: Sendable {
        /// A browser or other client: every frame masked; what we send back is not.
        case client
        /// An exchange's server: no frame masked; what we send back is.
        case server
    }

    private let peer: Peer
    /// Whether permessage-deflate was agreed (RSV1 then marks a compressed message).
    private let deflate: Bool
    private var inMessage = false
    /// The message in progress is uncompressed text: its UTF-8 is checked.
    private var checkingText = false
    private var utf8 = UTF8Stream()
    private var failed = false

    public init(peer: Peer, deflate: Bool) {
        self.peer = peer
        self.deflate = deflate
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let frame = unwrapInboundIn(data)
        if let code = problem(frame) {
            fail(context, code)
            return
        }
        context.fireChannelRead(data)
    }

    private func problem(_ frame: WebSocketFrame) -> WebSocketErrorCode? {
        guard (frame.maskKey != nil) == (peer == .client), !frame.rsv2, !frame.rsv3 else { return .protocolError }
        switch frame.opcode {
        case .connectionClose, .ping, .pong:
            guard frame.fin, !frame.rsv1, frame.length <= 125 else { return .protocolError }
            if frame.opcode == .connectionClose { return closeProblem(frame.unmaskedData) }
            return nil
        case .text, .binary:
            guard !inMessage, !frame.rsv1 || deflate else { return .protocolError }
            inMessage = !frame.fin
            checkingText = frame.opcode == .text && !frame.rsv1
            utf8 = UTF8Stream()
            return textProblem(frame)
        case .continuation:
            guard inMessage, !frame.rsv1 else { return .protocolError }
            inMessage = !frame.fin
            return textProblem(frame)
        default:
            return .protocolError
        }
    }

    private func textProblem(_ frame: WebSocketFrame) -> WebSocketErrorCode? {
        guard checkingText else { return nil }
        let data = frame.unmaskedData
        guard utf8.take(data.readableBytesView), !frame.fin || utf8.isComplete else { return .dataInconsistentWithMessage }
        return nil
    }

    /// A close frame: empty, or a code a peer may send and a UTF-8 reason.
    private func closeProblem(_ payload: ByteBuffer) -> WebSocketErrorCode? {
        guard payload.readableBytes != 0 else { return nil }
        guard payload.readableBytes >= 2, let code = payload.getInteger(at: payload.readerIndex, as: UInt16.self) else { return .protocolError }
        guard (1000...1003).contains(code) || (1007...1011).contains(code) || (3000...4999).contains(code) else { return .protocolError }
        var reason = UTF8Stream()
        let bytes = payload.readableBytesView.dropFirst(2)
        guard reason.take(bytes), reason.isComplete else { return .dataInconsistentWithMessage }
        return nil
    }

    private func fail(_ context: ChannelHandlerContext, _ code: WebSocketErrorCode) {
        failed = true
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        let channel = context.channel
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: peer == .server ? .random() : nil, data: data)
        context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}

/// UTF-8 checked a piece at a time: a character may be cut between pieces.
public struct UTF8Stream: Sendable {
    /// Continuation bytes still due, and the bounds the next one must keep (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF).
    private var due = 0
    private var low: UInt8 = 0x80
    private var high: UInt8 = 0xBF

    public var isComplete: Bool { due == 0 }

    public init() {}

    /// False at the first byte that cannot be valid UTF-8. A piece in one block of memory that
    /// starts between characters (as nearly every frame does) has its whole characters checked by
    /// the standard library's validator, and only a character cut at its end byte by byte.
    public mutating func take<S: Sequence>(_ bytes: S) -> Bool where S.Element == UInt8 {
        if due == 0, let tail = bytes.withContiguousStorageIfAvailable(Self.wholeCharactersChecked) {
            guard let tail else { return false }
            return takeEach(tail)
        }
        return takeEach(bytes)
    }

    /// The bytes of a character cut at the end of `buffer` (to be completed by the next piece),
    /// once every character before it is valid; nil when one is not.
    private static func wholeCharactersChecked(_ buffer: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var cut = buffer.count
        var index = buffer.count - 1
        // A character cut at the end has its first byte among the last three.
        while index >= 0, index >= buffer.count - 3 {
            let byte = buffer[index]
            if byte & 0xC0 != 0x80 {
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                if index + length > buffer.count { cut = index }
                break
            }
            index -= 1
        }
        guard String(validating: UnsafeBufferPointer(rebasing: buffer[..<cut]), as: UTF8.self) != nil else { return nil }
        return Array(buffer[cut...])
    }

    private mutating func takeEach<S: Sequence>(_ bytes: S) -> Bool where S.Element == UInt8 {
        for byte in bytes {
            if due > 0 {
                guard (low...high).contains(byte) else { return false }
                due -= 1
                (low, high) = (0x80, 0xBF)
                continue
            }
            switch byte {
            case 0x00...0x7F: continue
            case 0xC2...0xDF: due = 1
            case 0xE0: (due, low) = (2, 0xA0)
            case 0xE1...0xEC, 0xEE...0xEF: due = 2
            case 0xED: (due, high) = (2, 0x9F)
            case 0xF0: (due, low) = (3, 0x90)
            case 0xF1...0xF3: due = 3
            case 0xF4: (due, high) = (3, 0x8F)
            default: return false
            }
        }
        return true
    }
}
