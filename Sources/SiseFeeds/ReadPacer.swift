import NIOCore
import Synchronization

/// Reads of an upstream socket, counted across its connections (`sise_upstream_reads_total`).
public final class SocketReadCounter: Sendable {
    private let count = Atomic<Int>(0)
    public init() {}
    public var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}

/// Paces an upstream socket's reads. A ticker stream's frames are applied when the board
/// flushes, so reading each one the moment it lands only buys wake-ups: 150 frames a second
/// were 150 event-loop wake-ups, most of an idle server's CPU. Instead the consumer *collects*
/// — reads what the socket holds, in one go, right before it flushes — and between collections
/// the next read waits `interval` (so a stream nobody collects from still flows). A read that
/// brought `burst` bytes or more is followed at once, so a backlog drains at full speed.
final class ReadPacer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let interval: TimeAmount
    private let burst: Int
    private let counter: SocketReadCounter?
    private var context: ChannelHandlerContext?
    /// Bytes read since the last read request.
    private var received = 0
    /// The read held back until `interval` is up (or someone collects).
    private var deferred: Scheduled<Void>?
    /// Collections waiting for the read in progress to be delivered.
    private var waiting: [Int: EventLoopPromise<Void>] = [:]
    private var nextWaiter = 0

    init(interval: TimeAmount, burst: Int = 16_384, counter: SocketReadCounter? = nil) {
        self.interval = interval
        self.burst = burst
        self.counter = counter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeferred()
        self.context = nil
        release()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += unwrapInboundIn(data).readableBytes
        context.fireChannelRead(data)
    }

    /// Everything read has gone up the pipeline (decoded, handed to the consumer): collections
    /// waiting for it are done.
    func channelReadComplete(context: ChannelHandlerContext) {
        counter?.add()
        context.fireChannelReadComplete()
        release()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeferred()
        release()
        context.fireChannelInactive()
    }

    func read(context: ChannelHandlerContext) {
        let backlog = received >= burst
        received = 0
        guard !backlog, interval > .zero else {
            context.read()
            return
        }
        guard deferred == nil else { return }
        deferred = context.eventLoop.assumeIsolated().scheduleTask(in: interval) { [self] in
            deferred = nil
            context.read()
        }
    }

    /// Reads what the socket holds now; the future succeeds once that has been delivered, or
    /// after `patience` when nothing was there to read.
    func collect(patience: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        guard let context else { return eventLoop.makeSucceededVoidFuture() }
        let promise = eventLoop.makePromise(of: Void.self)
        let id = nextWaiter
        nextWaiter += 1
        waiting[id] = promise
        eventLoop.assumeIsolated().scheduleTask(in: patience) { [self] in
            waiting.removeValue(forKey: id)?.succeed()
        }
        if let held = deferred {
            held.cancel()
            deferred = nil
            context.read()
        }
        return promise.futureResult
    }

    private func release() {
        let done = waiting
        waiting.removeAll()
        for promise in done.values { promise.succeed() }
    }

    private func cancelDeferred() {
        deferred?.cancel()
        deferred = nil
    }
}
