import NIOCore
import NIOHTTP1

/// Upbit answers a WebSocket upgrade over its limits with an HTTP 429 naming the group. The
/// server library answers every declined upgrade with a bare 400 and offers no hook for another
/// status, so the refusal is written onto the connection here, ahead of that 400, and the
/// connection is closed once it is out.
enum SimUpgradeRefusal {
    static func tooManyRequests(group: String, on channel: any Channel) {
        let body = ByteBuffer(string: #"{"error":{"name":429,"message":"Too many requests"}}"#)
        let headers = HTTPHeaders([
            ("Remaining-Req", "group=\(group); min=0; sec=0"),
            ("Content-Type", "application/json; charset=utf-8"),
            ("Content-Length", String(body.readableBytes)),
            ("Connection", "close"),
        ])
        let head = HTTPResponseHead(version: .http1_1, status: .tooManyRequests, headers: headers)
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil)
        channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
