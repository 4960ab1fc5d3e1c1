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
    /// The peer's IP address (per-client limits count against it as well as the device).
    public let clientAddress: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        webSocket = .init()
        clientAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The identities a per-client limit counts against.
    var clientIdentities: Set<String> {
        var ids: Set<String> = []
        if !deviceID.isEmpty { ids.insert("device:" + deviceID) }
        if let clientAddress { ids.insert("ip:" + clientAddress) }
        return ids
    }
}
