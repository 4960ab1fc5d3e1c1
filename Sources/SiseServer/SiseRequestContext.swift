import Foundation
import Hummingbird
import HummingbirdWebSocket

/// The request context of every route: Hummingbird's core, the WebSocket hook, and the
/// device identity the identity middleware resolved.
public struct SiseRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<SiseRequestContext>
    /// The anonymous device that owns favorites until accounts arrive.
    public var deviceID: String = ""

    public init(source: Source) {
        coreContext = .init(source: source)
        webSocket = .init()
    }
}
