import HummingbirdWebSocket
import NIOCore
import Synchronization

/// Where a request context keeps Hummingbird's WebSocket handler reference, so that it can be let
/// go. Hummingbird's `ws` route stores the handler *and the request context* in a box that the
/// context itself references (`context.webSocket`), and never empties it: every upgraded
/// connection's context — and with it the connection's channel, pipeline and buffers, ≈ 5.6 KB —
/// stayed alive in that cycle after the connection closed. The context reaches the box only
/// through this slot, and the slot drops it when the connection closes.
final class WebSocketSlot: Sendable {
    private let state = Mutex<(reference: WebSocketHandlerReference<SiseRequestContext>?, census: PageCensus?)>((.init(), nil))

    /// The reference Hummingbird stores the route's handler in (an empty one once released:
    /// nothing reads it after the connection has closed).
    var reference: WebSocketHandlerReference<SiseRequestContext> { state.withLock { $0.reference } ?? .init() }

    /// Lets the box go when `channel` closes, on every path (a close frame, a reset, a refused
    /// upgrade, shutdown); `census` counts the context until it is freed.
    func releaseOnClose(of channel: any Channel, census: PageCensus) {
        let counted = state.withLock { state -> Bool in
            guard state.census == nil else { return false }
            state.census = census
            return true
        }
        guard counted else { return }
        census.made(.context)
        channel.closeFuture.whenComplete { _ in self.release() }
    }

    func release() {
        state.withLock { $0.reference = nil }
    }

    deinit { state.withLock { $0.census }?.freed(.context) }
}
