import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers what the HTTP parser refuses after the first request of a connection (the connection
/// guard holds only the first head): a keep-alive request whose head overflows the limits gets
/// the same JSON 431 (or 400 for anything malformed) as a first request would, and the
/// connection closes — never the HTTP layer's empty 400.
final class ParserErrorAnswer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private var answered = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        guard !answered else { return }
        answered = true
        let (status, code, message): (HTTPResponse.Status, String, String) =
            switch parserError {
            case .headerOverflow: (.requestHeaderFieldsTooLarge, "headers_too_large", "the request head is too large")
            default: (.badRequest, "bad_request", "malformed request")
            }
        ClosingAnswer.send(context, status: status, code: code, message: message)
    }
}
