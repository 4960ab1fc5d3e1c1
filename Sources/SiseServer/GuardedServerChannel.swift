import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWSCompression
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 + WebSocket channel with `ConnectionGuard` in front of it, and the
/// HTTP layer's own idle timeout and header limits set.
struct GuardedServerChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let counter: ConnectionCounter
    /// Whether a page of this `Origin` may open a WebSocket.
    let acceptsOrigin: @Sendable (String?) -> Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionGuard(counter: counter), position: .first)
            // The pipeline is made at once (on this loop): the first request's head is judged
            // between the HTTP decoder and the upgrader.
            let made = inner.setup(channel: channel, logger: logger)
            let decoder = try channel.pipeline.syncOperations.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(UpgradeHeadGuard(acceptsOrigin: acceptsOrigin), position: .after(decoder.handler))
            try channel.pipeline.syncOperations.addHandler(WebSocketRulesInstaller(), position: .last)
            return made
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// `.http1WebSocketUpgrade(webSocketRouter:)` behind the connection guard.
    static func guardedHTTP1WebSocket<Builder: HTTPResponderBuilder & _HB_SendableMetatype>(
        webSocketRouter: Builder,
        counter: ConnectionCounter,
        acceptsOrigin: @escaping @Sendable (String?) -> Bool
    ) -> HTTPServerBuilder where Builder.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        let limits = counter.limits
        var decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        decoder.maxHeaderFieldSize = limits.maxHeaderBytes
        decoder.maxHeaderListSize = limits.maxHeaderBytes
        decoder.maxHeaderFieldCount = limits.maxHeaderCount
        let idle = TimeAmount.seconds(limits.idleTimeout.components.seconds)
        let body = BodyDeadline.Rules(
            timeout: TimeAmount(limits.bodyTimeout),
            grace: TimeAmount(limits.bodyGrace),
            minimumRate: limits.minimumBodyRate
        )
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ParserErrorAnswer(), BodyDeadline(rules: body)],
            idleTimeout: idle,
            httpDecoderConfiguration: decoder
        )
        return HTTPServerBuilder { responder in
            GuardedServerChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder,
                    webSocketResponder: webSocketResponder,
                    configuration: .init(http1: http1, ws: .init(extensions: [PageEncoding.serverExtension], validateUTF8: true))
                ),
                counter: counter,
                acceptsOrigin: acceptsOrigin
            )
        }
    }
}
