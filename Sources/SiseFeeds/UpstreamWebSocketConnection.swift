import NIOCore
import NIOHTTP1
import NIOWebSocket

/// An open client WebSocket: read messages (pings answered, fragments joined, the close
/// handshake done here), send text, pings and a close. Every frame we send is masked, as a
/// client must.
///
/// Messages are handed over on the socket's event loop as they are read (`read(synchronously:)`):
/// a ticker frame costs no task wake-up and no hop between threads — at 150 frames a second the
/// wake-ups of an async sequence cost an idle server more than decoding did.
public struct UpstreamWebSocketConnection: Sendable {
    /// What reading yields: a data message, or a pong (proof the socket is alive).
    public enum Message: Sendable {
        case text(ByteBuffer)
        case binary(ByteBuffer)
        case pong
    }

    private let channel: any Channel
    private let frames: NIOLoopBound<UpstreamFrameHandler>
    private let pacer: NIOLoopBound<ReadPacer>?
    private let closed: EventLoopFuture<WebSocketErrorCode?>
    /// The server's `101 Switching Protocols` answer (its headers carry `remaining-req`).
    public let reply: HTTPResponseHead

    init(
        channel: any Channel,
        frames: NIOLoopBound<UpstreamFrameHandler>,
        pacer: NIOLoopBound<ReadPacer>?,
        closed: EventLoopFuture<WebSocketErrorCode?>,
        reply: HTTPResponseHead
    ) {
        self.channel = channel
        self.frames = frames
        self.pacer = pacer
        self.closed = closed
        self.reply = reply
    }

    /// Calls `onMessage` on the socket's event loop for every message until the server closes
    /// (returns its close code, nil when it just hung up) or the socket fails (throws).
    /// `onMessage` must not block: it runs between socket reads.
    public func read(synchronously onMessage: @escaping @Sendable (Message) -> Void) async throws -> WebSocketErrorCode? {
        let frames = self.frames
        try await channel.eventLoop.submit { frames.value.start(onMessage) }.get()
        return try await untilClosed()
    }

    /// The end of the socket; a cancelled reader closes it (which ends it).
    private func untilClosed() async throws -> WebSocketErrorCode? {
        try await withTaskCancellationHandler {
            try await closed.get()
        } onCancel: { [channel] in
            channel.close(promise: nil)
        }
    }

    /// Calls `onMessage` for every message, in order, until the server closes (returns its close
    /// code) or the socket fails (throws).
    public func read(_ onMessage: (Message) async throws -> Void) async throws -> WebSocketErrorCode? {
        let (messages, continuation) = AsyncStream.makeStream(of: Message.self)
        // Both on the event loop: every message read before the end is yielded before it.
        closed.whenComplete { _ in continuation.finish() }
        let frames = self.frames
        try await channel.eventLoop.submit { frames.value.start { continuation.yield($0) } }.get()
        // A cancelled reader closes the socket, which finishes `messages`.
        try await withTaskCancellationHandler {
            for await message in messages {
                try await onMessage(message)
            }
        } onCancel: { [channel] in
            channel.close(promise: nil)
        }
        return try await untilClosed()
    }

    /// On a paced socket (`Options.readPacing`): reads what it holds now and returns once those
    /// messages have been handed to the reader, or after `patience` when there was nothing.
    /// Returns at once on a socket read as data lands.
    public func collect(waitingAtMost patience: Duration) async {
        guard let pacer else { return }
        let wait = TimeAmount.nanoseconds(Int64(UpstreamWebSocket.nanoseconds(patience)))
        let loop = channel.eventLoop
        try? await loop.flatSubmit { pacer.value.collect(patience: wait, on: loop) }.get()
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
    }

    private func write(_ opcode: WebSocketOpcode, _ data: ByteBuffer) async throws {
        try await channel.writeAndFlush(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data))
    }
}

/// The last handler of an upgraded upstream socket: answers pings, does the close handshake and
/// hands every other message to the reader's callback, on the event loop. Messages read before
/// the reader starts wait for it.
final class UpstreamFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var sink: (@Sendable (UpstreamWebSocketConnection.Message) -> Void)?
    private var early: [UpstreamWebSocketConnection.Message] = []
    private let closed: EventLoopPromise<WebSocketErrorCode?>
    private var closeCode: WebSocketErrorCode?
    private var finished = false

    init(closed: EventLoopPromise<WebSocketErrorCode?>) {
        self.closed = closed
    }

    func start(_ sink: @escaping @Sendable (UpstreamWebSocketConnection.Message) -> Void) {
        self.sink = sink
        let waiting = early
        early = []
        for message in waiting { sink(message) }
    }

    private func deliver(_ message: UpstreamWebSocketConnection.Message) {
        if let sink { sink(message) } else { early.append(message) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            deliver(.text(frame.unmaskedData))
        case .binary:
            deliver(.binary(frame.unmaskedData))
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .pong:
            deliver(.pong)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode()
            closeCode = code
            // The close handshake: the same code back, then the socket is done.
            var reply = context.channel.allocator.buffer(capacity: 2)
            reply.write(webSocketErrorCode: code ?? .normalClosure)
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: reply)),
                promise: nil
            )
            finish(.success(code))
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.success(closeCode))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(error))
        context.close(promise: nil)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish(.success(closeCode))
    }

    private func finish(_ result: Result<WebSocketErrorCode?, any Error>) {
        guard !finished else { return }
        finished = true
        closed.completeWith(result)
    }
}
