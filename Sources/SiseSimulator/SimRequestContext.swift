import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The simulator's request context: the WebSocket upgrade reference, plus the connection, so
/// limits can be per client address (Upbit counts WebSocket connects per IP).
struct SimRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }

    /// The client's IP address, or a stable placeholder when the socket has none.
    var clientAddress: String { channel.remoteAddress?.ipAddress ?? "unknown" }
}
