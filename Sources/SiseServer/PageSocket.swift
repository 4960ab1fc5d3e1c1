import NIOCore
import NIOWebSocket
import Prometheus

/// A page's `/ws` connection as the hub writes to it: the channel (written on its own event
/// loop, below the WebSocket handler's async writer), how its messages are encoded, and the
/// counters each written message adds to.
struct PageSocket: Sendable {
    let channel: any Channel
    let encoding: PageEncoding
    let framesOut: Prometheus.Counter
    let bytesOut: Prometheus.Counter
    let slowMerges: Prometheus.Counter
    /// The page's own deflate stream, when it takes messages that refer back to earlier ones.
    private let stream: PageStream?

    init(channel: any Channel, encoding: PageEncoding, framesOut: Prometheus.Counter, bytesOut: Prometheus.Counter,
         slowMerges: Prometheus.Counter) {
        self.channel = channel
        self.encoding = encoding
        self.framesOut = framesOut
        self.bytesOut = bytesOut
        self.slowMerges = slowMerges
        if case .deflate(let bits, true) = encoding { stream = PageStream(windowBits: bits) } else { stream = nil }
    }

    /// The frame that carries `message` to this page.
    func frame(_ message: PageMessage) -> WebSocketFrame {
        stream?.frame(message.text) ?? message.frame(for: encoding)
    }

    func wrote(bytes: Int) {
        framesOut.increment()
        bytesOut.increment(by: Int64(bytes))
    }
}

/// Tells a page's outbox when its socket can take more after its send buffer filled up: the
/// messages merged meanwhile are written then.
final class PageWritability: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny
    private let client: BoardClient

    init(_ client: BoardClient) { self.client = client }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { client.schedule() }
        context.fireChannelWritabilityChanged()
    }
}
