import NIOCore
import Prometheus

/// Sits next to the socket: the hub's frames, already on the wire format (`WireFrame`), are
/// written from here, below the WebSocket handlers, so a write to 10,000 pages walks no pipeline;
/// and it says when a full socket drains, so the messages merged meanwhile follow.
///
/// Where the socket's descriptor is known (`SocketDescriptor`) a frame is sent straight to it — one
/// `send(2)`, none of NIO's write path (the pipeline's head, the pending-writes queue, the flush,
/// the promise), which cost about a sixth of a page's CPU per message (20.1 → 16.9 µs at 1,000
/// pages). NIO's queue takes over the moment the kernel does not take a whole frame (its buffer
/// full, an error): the rest of that frame and everything after it go through the pipeline, in
/// order, until NIO has written all it holds; NIO then reports the socket's errors and writability as it always does. The WebSocket
/// handlers' own frames (pongs, the close) pass through here too, counted the same way, so no
/// frame ever overtakes another.
///
/// `@unchecked Sendable`: its page's `PageSocket` (shared by the hub's threads) holds it, so that a
/// write reaches it without a box to fetch; its state is only ever read and written on its
/// channel's event loop — by NIO's callbacks, `installOnLoop` and `BoardClient.write`, which
/// run there.
final class PageWire: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    typealias OutboundOut = ByteBuffer
    private var context: ChannelHandlerContext?
    /// The socket takes more: NIO's writability as its events tell it, kept here so that a write
    /// asks no channel (its state and its pending writes are other objects to fetch).
    private var roomy = true
    /// The connection is up (until `channelInactive`).
    private var active = true
    /// A frame went to NIO since the last flush.
    private var unflushed = false
    /// The socket's descriptor when frames are sent to it directly, else -1.
    private var descriptor: CInt = -1
    /// Writes handed to NIO and not yet written by it (or failed): while any are, frames queue
    /// behind them.
    private var queued = 0
    // What a write reads is declared above, together.
    var onWritable: (() -> Void)?
    private let census: PageCensus?
    private let directPages: Prometheus.Gauge?
    private let queuedWrites: Prometheus.Counter?

    init(census: PageCensus? = nil, metrics: ServerMetrics? = nil) {
        self.census = census
        directPages = metrics?.directPages
        queuedWrites = metrics?.queuedWrites
        census?.made(.wire)
    }

    deinit { census?.freed(.wire) }

    /// On the event loop, once in the pipeline: frames go straight to the socket from now on,
    /// when its descriptor can be told for sure (`SocketDescriptor`).
    func sendDirectly() {
        guard let context, descriptor < 0, context.channel.isActive, let fd = SocketDescriptor.of(context.channel) else { return }
        descriptor = fd
        directPages?.increment()
    }

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
        stopSendingDirectly()
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
        stopSendingDirectly()
        context.fireChannelInactive()
    }

    private func stopSendingDirectly() {
        guard descriptor >= 0 else { return }
        descriptor = -1
        directPages?.decrement()
    }

    /// Frames go straight to the socket now (not only through the pipeline).
    var sendsDirectly: Bool { descriptor >= 0 }

    /// In the pipeline, the connection up and the socket not full.
    var writable: Bool { context != nil && active && roomy }

    /// False once the handler has left the pipeline (the connection is closing).
    ///
    /// Call from a task of its own on the event loop (`BoardClient` writes from `loop.execute`),
    /// never from inside one of NIO's callbacks: NIO closes a socket in `close0` and then calls
    /// handlers back (`channelInactive` last) — only from inside those callbacks could a send
    /// find the descriptor closed and not yet forgotten, its number free for the process to reuse.
    /// From a task of its own it finds the connection either up or over (`channelInactive` has
    /// run and the descriptor is forgotten).
    func write(_ frame: ByteBuffer) -> Bool {
        var rest = frame
        // The descriptor is only known while the handler is in the pipeline and the connection up.
        if descriptor >= 0, queued == 0 {
            let sent = SocketDescriptor.send(frame, to: descriptor)
            if sent == frame.readableBytes { return true }
            if sent > 0 { rest.moveReaderIndex(forwardBy: sent) }
            queuedWrites?.increment()
        }
        guard let context else { return false }
        if descriptor >= 0 {
            enqueue(wrapOutboundOut(rest), promise: nil, context: context)
        } else {
            unflushed = true
            context.write(wrapOutboundOut(rest), promise: nil)
        }
        return true
    }

    /// `frames` in order, as `write(_:)` writes one: sent straight to the socket together (one
    /// `sendmsg` for up to `SocketDescriptor.maxGathered`), what the kernel did not take queued
    /// behind in NIO's pipeline. False once the handler has left the pipeline.
    func write(_ frames: [ByteBuffer]) -> Bool {
        var next = 0
        while descriptor >= 0, queued == 0, next < frames.count {
            let batch = frames[next..<min(next + SocketDescriptor.maxGathered, frames.count)]
            var sent = max(SocketDescriptor.send(batch, to: descriptor), 0)
            while next < batch.endIndex, sent >= frames[next].readableBytes {
                sent -= frames[next].readableBytes
                next += 1
            }
            guard next < batch.endIndex else { continue }
            // The kernel took part of the batch: the rest of this frame, and every frame after it,
            // goes through NIO's queue, in order.
            var rest = frames[next]
            rest.moveReaderIndex(forwardBy: sent)
            queuedWrites?.increment()
            guard let context else { return false }
            enqueue(wrapOutboundOut(rest), promise: nil, context: context)
            next += 1
        }
        for frame in frames[next...] {
            guard write(frame) else { return false }
        }
        return true
    }

    func flush() {
        guard unflushed, let context else { return }
        unflushed = false
        context.flush()
    }

    /// The other handlers' writes (the WebSocket handler's pongs and close frame) go through
    /// NIO, counted, so that no frame sent directly can overtake them.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard descriptor >= 0 else { return context.write(data, promise: promise) }
        enqueue(data, promise: promise, context: context)
    }

    func flush(context: ChannelHandlerContext) {
        unflushed = false
        context.flush()
    }

    private func enqueue(_ data: NIOAny, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        let written = promise ?? context.eventLoop.makePromise()
        queued += 1
        unflushed = true
        written.futureResult.whenComplete { _ in self.queued -= 1 }
        context.write(data, promise: written)
    }
}
