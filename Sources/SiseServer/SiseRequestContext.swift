import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import SiseStore

/// The request context of every route: Hummingbird's core, the WebSocket hook, and the
/// device identity the identity middleware resolved.
public struct SiseRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Hummingbird's WebSocket handler reference, through a slot that lets it go when the
    /// connection closes (`WebSocketSlot`: held directly, it kept every upgraded connection).
    public var webSocket: WebSocketHandlerReference<SiseRequestContext> { webSocketSlot.reference }
    let webSocketSlot = WebSocketSlot()
    /// The anonymous device that owns favorites until accounts arrive.
    public var deviceID: String = ""
    /// The logged-in account, when the request carries a live session.
    public var account: Account?
    /// The hash of this request's session token (to end or keep it).
    public var sessionTokenHash: String?
    /// The client's IP address by the one rule (`TrustedProxies`: the peer, or what a trusted
    /// proxy forwarded); per-client limits count against it as well as the device.
    public internal(set) var clientAddress: String?
    /// The TCP peer (a proxy, when there is one).
    let peerAddress: String?
    /// The connection (a `/ws` page is written to on it directly).
    let channel: any Channel

    /// The request came from this machine (127.0.0.0/8 or ::1).
    var isLoopback: Bool {
        guard let clientAddress else { return false }
        return clientAddress.hasPrefix("127.") || clientAddress == "::1" || clientAddress.hasPrefix("::ffff:127.")
    }

    public init(source: Source) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        clientAddress = peerAddress
        channel = source.channel
    }

    /// Who owns what this request reads and changes: the account when logged in, else the
    /// anonymous device.
    public var owner: String { account?.owner ?? deviceID }

    /// The identities a per-client limit counts against.
    var clientIdentities: Set<String> {
        var ids: Set<String> = []
        if !deviceID.isEmpty { ids.insert("device:" + deviceID) }
        if let clientAddress { ids.insert("ip:" + clientAddress) }
        return ids
    }
}
