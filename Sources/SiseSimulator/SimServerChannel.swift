import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Hummingbird's HTTP/1 + WebSocket channel, with connections that never began a request closed
/// when the server is asked to end. The HTTP layer, which closes idle keep-alive connections
/// then, is only put in place by a connection's first request head: a connection opened ahead of
/// its request (browsers open them speculatively, and keep them) held the simulator — and a
/// `sise serve --demo` with it — open for as long as the browser kept it.
struct SimServerChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(SilentConnectionCloser(), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// `.http1WebSocketUpgrade(webSocketRouter:)`, its silent connections closed at shutdown.
    static func simulatorHTTP1WebSocket<Builder: HTTPResponderBuilder & _HB_SendableMetatype>(
        webSocketRouter: Builder
    ) -> HTTPServerBuilder where Builder.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            SimServerChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: .init())
            )
        }
    }
}

/// Closes the connection if the server quiesces before any byte of a request arrived; steps
/// aside at the first byte.
final class SilentConnectionCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
