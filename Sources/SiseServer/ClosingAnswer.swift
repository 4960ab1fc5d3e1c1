import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// A refusal of the HTTP layer's own (what the parser refuses, a body too slow): JSON
/// `{"error":{code, message}}` with `Connection: close`, then the connection closes. Written from
/// a handler that sits after the HTTP codec (its parts are `HTTPResponsePart`s).
enum ClosingAnswer {
    static func send(_ context: ChannelHandlerContext, status: HTTPResponse.Status, code: String, message: String) {
        let body = ByteBuffer(string: #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#)
        let head = HTTPResponse(
            status: status,
            headerFields: [
                .contentType: "application/json; charset=utf-8",
                .contentLength: String(body.readableBytes), .connection: "close",
            ]
        )
        context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
