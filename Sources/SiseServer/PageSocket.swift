import NIOCore
import Prometheus

/// A page's `/ws` connection as the hub writes to it: the channel, how its messages are encoded,
/// the handler that puts finished frames on the socket, and the counters each written message
/// adds to. One object: a batch for thousands of pages touches as few of each page's cache lines
/// as it can (per page, the cost of a message is mostly memory it has to fetch).
final class PageSocket: Sendable {
    let channel: any Channel
    let encoding: PageEncoding
    let framesOut: Prometheus.Counter
    let bytesOut: Prometheus.Counter
    let slowMerges: Prometheus.Counter
    /// Counts this page's objects alive (`sise_ws_page_objects`).
    let census: PageCensus
    /// The page's own deflate stream, when it takes messages that refer back to earlier ones.
    private let stream: PageStream?
    /// The handler that writes this page's frames: made with the page, in the pipeline once
    /// `installOnLoop` has run (until then it refuses writes).
    private let wire: PageWire

    init(channel: any Channel, encoding: PageEncoding, metrics: ServerMetrics) {
        self.channel = channel
        self.encoding = encoding
        framesOut = metrics.framesOut
        bytesOut = metrics.bytesOut
        slowMerges = metrics.slowMerges
        census = metrics.pages
        if case .deflate(let bits, true) = encoding { stream = PageStream(windowBits: bits, census: census) } else { stream = nil }
        wire = PageWire(census: census)
    }

    /// Puts the page's wire handler next to the socket; `onWritable` runs (on the event loop)
    /// whenever a full socket drains. Call on the channel's event loop.
    func installOnLoop(onWritable: @escaping () -> Void) throws {
        wire.onWritable = onWritable
        try channel.pipeline.syncOperations.addHandler(wire, position: .first)
    }

    func install(onWritable: @escaping @Sendable () -> Void) async throws {
        try await channel.eventLoop.submit { try self.installOnLoop(onWritable: onWritable) }.get()
    }

    /// On the event loop: whether the socket takes a write now (installed, the connection up,
    /// not full).
    var writable: Bool { wire.writable }

    /// On the event loop: `messages` written in order and flushed once.
    func send(_ messages: [PageMessage]) {
        for message in messages {
            guard write(message) else { return }
        }
        wire.flush()
    }

    /// On the event loop: one message, written and flushed.
    func send(_ message: PageMessage) {
        guard write(message) else { return }
        wire.flush()
    }

    private func write(_ message: PageMessage) -> Bool {
        guard wire.write(stream?.wire(message.text) ?? message.wire(for: encoding)) else { return false }
        framesOut.increment()
        bytesOut.increment(by: Int64(message.text.readableBytes))
        return true
    }
}

/// Sits next to the socket: the hub's frames, already on the wire format (`WireFrame`), are
/// written from here, below the WebSocket handlers, so a write to 10,000 pages walks no pipeline;
/// and it says when a full socket drains, so the messages merged meanwhile follow.
///
/// `@unchecked Sendable`: its page's `PageSocket` (shared by the hub's threads) holds it, so that a
/// write reaches it without a box to fetch; its state is only ever read and written on its
/// channel's event loop — by NIO's callbacks, `installOnLoop` and `BoardClient.write`, which
/// run there.
final class PageWire: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    typealias OutboundOut = ByteBuffer
    private var context: ChannelHandlerContext?
    /// The socket takes more: NIO's writability as its events tell it, kept here so that a write
    /// asks no channel (its state and its pending writes are other objects to fetch).
    private var roomy = true
    /// The connection is up (until `channelInactive`).
    private var active = true
    var onWritable: (() -> Void)?
    private let census: PageCensus?

    init(census: PageCensus? = nil) {
        self.census = census
        census?.made(.wire)
    }

    deinit { census?.freed(.wire) }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        roomy = context.channel.isWritable
        active = context.channel.isActive
    }
    /// The connection is over (every handler leaves the pipeline when the channel closes, on
    /// every path: close frame, FIN, reset, timeout, shutdown): nothing it referred to is kept.
    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        onWritable = nil
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        roomy = context.channel.isWritable
        if roomy { onWritable?() }
        context.fireChannelWritabilityChanged()
    }

    /// The connection is gone: nothing more is written to it, though the handler is still in the
    /// pipeline until the channel has closed.
    func channelInactive(context: ChannelHandlerContext) {
        active = false
        context.fireChannelInactive()
    }

    /// In the pipeline, the connection up and the socket not full.
    var writable: Bool { context != nil && active && roomy }

    /// False once the handler has left the pipeline (the connection is closing).
    func write(_ frame: ByteBuffer) -> Bool {
        guard let context else { return false }
        context.write(wrapOutboundOut(frame), promise: nil)
        return true
    }

    func flush() { context?.flush() }
}
