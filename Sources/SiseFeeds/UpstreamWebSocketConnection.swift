import NIOCore
import NIOHTTP1
import NIOWebSocket

/// An open client WebSocket: read messages (pings answered, fragments joined, the close
/// handshake done here), send text, pings and a close. Every frame we send is masked, as a
/// client must.
public struct UpstreamWebSocketConnection: Sendable {
    /// What reading yields: a data message, or a pong (proof the socket is alive).
    public enum Message: Sendable {
        case text(ByteBuffer)
        case binary(ByteBuffer)
        case pong
    }

    private let inbound: NIOAsyncChannelInboundStream<WebSocketFrame>
    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    /// The server's `101 Switching Protocols` answer (its headers carry `remaining-req`).
    public let reply: HTTPResponseHead

    init(inbound: NIOAsyncChannelInboundStream<WebSocketFrame>, outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>,
         reply: HTTPResponseHead) {
        self.inbound = inbound
        self.outbound = outbound
        self.reply = reply
    }

    /// Calls `onMessage` for every message until the server closes (returns its close code) or
    /// the socket fails (throws).
    public func read(_ onMessage: (Message) async throws -> Void) async throws -> WebSocketErrorCode? {
        for try await frame in inbound {
            switch frame.opcode {
            case .text:
                try await onMessage(.text(frame.unmaskedData))
            case .binary:
                try await onMessage(.binary(frame.unmaskedData))
            case .ping:
                try await write(.pong, frame.unmaskedData)
            case .pong:
                try await onMessage(.pong)
            case .connectionClose:
                var data = frame.unmaskedData
                let code = data.readWebSocketErrorCode()
                try? await close(code ?? .normalClosure)
                return code
            default:
                continue
            }
        }
        return nil
    }

    public func send(text: String) async throws {
        try await write(.text, ByteBuffer(string: text))
    }

    public func ping() async throws {
        try await write(.ping, ByteBuffer())
    }

    public func close(_ code: WebSocketErrorCode = .normalClosure) async throws {
        var data = ByteBuffer()
        data.write(webSocketErrorCode: code)
        try await write(.connectionClose, data)
        outbound.finish()
    }

    private func write(_ opcode: WebSocketOpcode, _ data: ByteBuffer) async throws {
        try await outbound.write(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data))
    }
}
