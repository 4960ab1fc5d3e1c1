import Foundation
import NIOCore
import NIOHTTP1

/// The first request of a connection — the only one that may upgrade — as the WebSocket
/// upgrader is to see it:
/// - an `Upgrade` the server does not take (`h2c` from curl or Java's client, anything but
///   `websocket`) is ignored, as RFC 9110 §7.8 says: it and its `Connection` token are taken out,
///   so the request is answered over HTTP/1.1 (the upgrader left nothing answered at all);
/// - a WebSocket handshake of another version gets 426 with `Sec-WebSocket-Version: 13`, one
///   without a valid key (16 bytes, base64) 400 (RFC 6455 §4.2.2, §4.4) — the upgrader dropped
///   the connection without a word;
/// - `Sec-WebSocket-Extensions` keeps only the offers the server accepts (`DeflateOffers`): the
///   others are declined by going unseen (RFC 7692 §5), and no offer reaches the compression
///   library's traps (a window of 7, 8 or 16 bits ended the process).
/// - a handshake from another site's page (its `Origin`) gets 403 `cross_origin` in words — the
///   upgrader answered every refusal with an empty 400.
/// Later requests on the connection cannot upgrade; the guard leaves once the first head is read.
final class UpgradeHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// A refusal: its status, extra headers, code and message.
    typealias Refusal = (status: HTTPResponseStatus, extra: [(String, String)], code: String, message: String)

    /// Whether a page of this `Origin` may open a WebSocket (nil: not a browser's page).
    private let acceptsOrigin: @Sendable (String?) -> Bool
    /// Answered here: the rest of the request is not read on.
    private var refused = false

    init(acceptsOrigin: @escaping @Sendable (String?) -> Bool = { _ in true }) {
        self.acceptsOrigin = acceptsOrigin
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        if let refusal = Self.judge(&head.headers, acceptsOrigin: acceptsOrigin) {
            refused = true
            answer(context, refusal)
            return
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Rewrites `headers` as the upgrader is to see them; a refusal to answer instead, if any.
    static func judge(_ headers: inout HTTPHeaders, acceptsOrigin: (String?) -> Bool = { _ in true }) -> Refusal? {
        let protocols = tokens(headers, "upgrade")
        guard !protocols.isEmpty else { return nil }
        let wantsUpgrade = tokens(headers, "connection").contains("upgrade")
        guard wantsUpgrade, protocols.contains("websocket") else {
            // An upgrade the server does not take: ignored.
            headers.remove(name: "Upgrade")
            let kept = headers[canonicalForm: "Connection"].filter { $0.lowercased() != "upgrade" }
            headers.remove(name: "Connection")
            for token in kept { headers.add(name: "Connection", value: String(token)) }
            return nil
        }
        guard headers[canonicalForm: "Sec-WebSocket-Version"].map(String.init) == ["13"] else {
            return (
                .upgradeRequired, [("Sec-WebSocket-Version", "13"), ("Upgrade", "websocket")], "bad_handshake",
                "only WebSocket version 13 is spoken here"
            )
        }
        let keys = headers["Sec-WebSocket-Key"]
        guard keys.count == 1, let key = keys.first, Data(base64Encoded: key.trimmingCharacters(in: .whitespaces))?.count == 16 else {
            return (.badRequest, [], "bad_handshake", "a WebSocket handshake needs one Sec-WebSocket-Key of 16 bytes, base64")
        }
        // Cross-site WebSocket hijacking: only Sise's own pages may connect.
        guard acceptsOrigin(headers.first(name: "Origin")) else {
            return (.forbidden, [], "cross_origin", "cross-site requests are refused")
        }
        let offers = headers["Sec-WebSocket-Extensions"]
        headers.remove(name: "Sec-WebSocket-Extensions")
        if let accepted = DeflateOffers.accepted(offers) { headers.add(name: "Sec-WebSocket-Extensions", value: accepted) }
        return nil
    }

    /// The lower-cased comma-separated tokens of every `name` field.
    static func tokens(_ headers: HTTPHeaders, _ name: String) -> [String] {
        headers[canonicalForm: name].map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    private func answer(_ context: ChannelHandlerContext, _ refusal: Refusal) {
        let (status, extra, code, message) = refusal
        let body = context.channel.allocator.buffer(string: #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#)
        var headers = HTTPHeaders([
            ("Content-Type", "application/json; charset=utf-8"), ("Content-Length", String(body.readableBytes)),
            ("Connection", "close"), ("Content-Security-Policy", "default-src 'none'"), ("X-Content-Type-Options", "nosniff"),
        ])
        headers.add(contentsOf: extra)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
