import Foundation
import NIOCore
import Prometheus

/// A page's `/ws` connection as the hub writes to it: the channel, how its messages are encoded,
/// the handler that puts finished frames on the socket, and the counters each written message
/// adds to. One object: a batch for thousands of pages touches as few of each page's cache lines
/// as it can (per page, the cost of a message is mostly memory it has to fetch).
final class PageSocket: Sendable {
    // What a write reads, declared first (together at the object's start).
    /// The handler that writes this page's frames: made with the page, in the pipeline once
    /// `installOnLoop` has run (until then it refuses writes).
    private let wire: PageWire
    /// The page's own deflate stream, when it takes messages that refer back to earlier ones.
    private let stream: PageStream?
    let encoding: PageEncoding
    let framesOut: Prometheus.Counter
    let bytesOut: Prometheus.Counter
    let slowMerges: Prometheus.Counter
    let channel: any Channel
    /// Counts this page's objects alive (`sise_ws_page_objects`).
    let census: PageCensus

    init(channel: any Channel, encoding: PageEncoding, metrics: ServerMetrics) {
        self.channel = channel
        self.encoding = encoding
        framesOut = metrics.framesOut
        bytesOut = metrics.bytesOut
        slowMerges = metrics.slowMerges
        census = metrics.pages
        if case .deflate(let bits, true) = encoding { stream = PageStream(windowBits: bits, census: census) } else { stream = nil }
        wire = PageWire(census: census, metrics: metrics)
    }

    /// Whether pages' frames are sent straight to their sockets (`PageWire`); the environment's
    /// `SISE_WS_DIRECT_SEND=off` keeps them on NIO's write path (a fallback, and the benchmark's
    /// before/after on one build).
    static let sendsDirectly = ProcessInfo.processInfo.environment["SISE_WS_DIRECT_SEND"] != "off"

    /// Puts the page's wire handler next to the socket; `onWritable` runs (on the event loop)
    /// whenever a full socket drains. Call on the channel's event loop.
    func installOnLoop(onWritable: @escaping () -> Void) throws {
        wire.onWritable = onWritable
        try channel.pipeline.syncOperations.addHandler(wire, position: .first)
        if Self.sendsDirectly { wire.sendDirectly() }
    }

    func install(onWritable: @escaping @Sendable () -> Void) async throws {
        try await channel.eventLoop.submit { try self.installOnLoop(onWritable: onWritable) }.get()
    }

    /// On the event loop: whether the socket takes a write now (installed, the connection up,
    /// not full).
    var writable: Bool { wire.writable }

    /// On the event loop: `messages` written in order — to the socket together — and flushed once.
    func send(_ messages: [PageMessage]) {
        guard messages.count > 1 else {
            if let message = messages.first { send(message) }
            return
        }
        guard wire.write(messages.map { stream?.wire($0.text) ?? $0.wire(for: encoding) }) else { return }
        for message in messages {
            framesOut.increment()
            bytesOut.increment(by: Int64(message.text.readableBytes))
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
