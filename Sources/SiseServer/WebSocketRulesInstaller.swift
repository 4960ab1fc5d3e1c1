import NIOCore
import NIOHTTP1
import NIOWebSocket
import SiseFeeds

/// Puts `WebSocketFrameRules` right after the frame decoder the moment a connection upgrades to
/// WebSocket — before the bytes that came with the handshake are read as frames. Touches no data.
final class WebSocketRulesInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Never

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .upgradeComplete(let proto, let request)? = event as? HTTPServerUpgradeEvents, proto.lowercased() == "websocket" {
            let deflate = request.headers["Sec-WebSocket-Extensions"].contains { $0.lowercased().contains(DeflateOffers.name) }
            let pipeline = context.pipeline.syncOperations
            if let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self) {
                try? pipeline.addHandler(WebSocketFrameRules(peer: .client, deflate: deflate), position: .after(decoder.handler))
            }
            pipeline.removeHandler(context: context, promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }
}
