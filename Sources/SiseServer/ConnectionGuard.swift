import Foundation
import NIOCore

/// The first handler of every connection, before HTTP parsing: counts the connection against
/// the limits (refusing it with a 503 when they are reached), and holds the first request head
/// to a deadline, a size and a header count (408 / 431, then close) — a client that sends half
/// a header, or a hundred kilobytes of them, gets an answer and loses its connection instead of
/// holding it forever. It steps aside once the first head is complete; keep-alive idleness is
/// the HTTP layer's idle timeout.
final class ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let counter: ConnectionCounter
    private var address: String?
    private var counted = false
    private var headBytes = 0
    private var headerLines = 0
    /// The last three bytes seen, to find `\r\n\r\n` across reads.
    private var tail: [UInt8] = []
    private var deadline: Scheduled<Void>?
    /// The request line, kept until its end to check its shape.
    private var requestLine: [UInt8] = []
    private var requestLineDone = false
    private var requestLineLength = 0
    private var done = false
    /// Refused: whatever else the client sends is dropped, never parsed as a request.
    private var refused = false
    /// The head so far, held back until it is complete and acceptable: the HTTP layer never
    /// sees a request this handler refuses (it would answer it a second time).
    private var pending: ByteBuffer?
    /// The longest request line (method, target, version) accepted.
    static let maxRequestLine = 8_192

    init(counter: ConnectionCounter) {
        self.counter = counter
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if !counted && !done { start(context) }
        if !done || counted { context.fireChannelActive() }
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        address = context.channel.remoteAddress?.ipAddress
        guard counter.open(address) else {
            refuse(
                context,
                status: "503 Service Unavailable",
                code: "too_many_connections",
                message: "too many open connections; try again shortly",
                retryAfter: 5
            )
            return
        }
        counted = true
        // Handed back when the connection closes, whenever that is: this handler leaves the
        // pipeline after the first request head and would never see the connection end.
        let counter = self.counter
        let address = self.address
        context.channel.closeFuture.whenComplete { _ in counter.close(address) }
        let timeout = TimeAmount.nanoseconds(
            Int64(counter.limits.headerTimeout.components.seconds) * 1_000_000_000
                + counter.limits.headerTimeout.components.attoseconds / 1_000_000_000
        )
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (handler, context) = loopBound.value
            guard !handler.done else { return }
            handler.refuse(
                context,
                status: "408 Request Timeout",
                code: "header_timeout",
                message: "the request head did not arrive in time",
                retryAfter: nil
            )
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    /// The server is ending: a connection whose first request head has not come whole has no
    /// answer under way. It is closed now — the HTTP layer, which closes idle connections then,
    /// only takes over at the first head, and a connection a browser opened ahead of its request
    /// would hold the shutdown until the head deadline.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !done {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard !done else { return context.fireChannelRead(data) }
        let buffer = unwrapInboundIn(data)
        var finished = false
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                headBytes += 1
                if !requestLineDone {
                    if byte == 0x0A {
                        requestLineDone = true
                    } else {
                        requestLineLength += 1
                        if requestLine.count < Self.maxRequestLine { requestLine.append(byte) }
                    }
                }
                if byte == 0x0A { headerLines += 1 }
                tail.append(byte)
                if tail.count > 4 { tail.removeFirst() }
                if tail == [0x0D, 0x0A, 0x0D, 0x0A] {
                    finished = true
                    break
                }
            }
        }
        if requestLineLength > Self.maxRequestLine {
            refuse(context, status: "414 URI Too Long", code: "uri_too_long", message: "the request target is too long", retryAfter: nil)
            return
        }
        if !finished && (headBytes > counter.limits.maxHeaderBytes || headerLines > counter.limits.maxHeaderCount + 1) {
            done = true
            refuse(
                context,
                status: "431 Request Header Fields Too Large",
                code: "headers_too_large",
                message: "the request head is too large",
                retryAfter: nil
            )
            return
        }
        if requestLineDone && !Self.isRequestLine(requestLine) {
            done = true
            refuse(context, status: "400 Bad Request", code: "bad_request", message: "malformed request line", retryAfter: nil)
            return
        }
        guard finished else {
            var held = pending ?? context.channel.allocator.buffer(capacity: buffer.readableBytes)
            var incoming = buffer
            held.writeBuffer(&incoming)
            pending = held
            return
        }
        done = true
        deadline?.cancel()
        if var head = pending {
            var incoming = buffer
            head.writeBuffer(&incoming)
            pending = nil
            context.fireChannelRead(wrapInboundOut(head))
        } else {
            context.fireChannelRead(data)
        }
        if finished {
            // The rest of the connection's life belongs to the HTTP layer. Removal is deferred
            // to the next tick: this handler's own read is still on the stack.
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.execute {
                let (handler, context) = loopBound.value
                context.pipeline.syncOperations.removeHandler(handler, promise: nil)
            }
        }
    }

    /// `METHOD SP TARGET SP HTTP/1.x` (CR optional), the method a token, the target printable
    /// ASCII (non-ASCII must be percent-encoded; the HTTP parser behind would refuse it with an
    /// empty 400 of its own).
    static func isRequestLine(_ raw: [UInt8]) -> Bool {
        let line = raw.last == 0x0D ? Array(raw.dropLast()) : raw
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = parts.first, !method.isEmpty, method.count <= 16,
            method.allSatisfy({ (0x41...0x5A).contains($0) }),
            parts[1].first == UInt8(ascii: "/") || parts[1].first == UInt8(ascii: "*") || parts[1].starts(with: Array("http".utf8)),
            parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
            Array(parts[2]) == Array("HTTP/1.1".utf8) || Array(parts[2]) == Array("HTTP/1.0".utf8)
        else { return false }
        return true
    }

    private func refuse(_ context: ChannelHandlerContext, status: String, code: String, message: String, retryAfter: Int?) {
        done = true
        refused = true
        pending = nil
        let body = #"{"error":{"code":""# + code + #"","message":""# + message + #""}}"#
        var head = "HTTP/1.1 \(status)\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
        head += "Connection: close\r\nX-Content-Type-Options: nosniff\r\n"
        if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
        let bytes = ByteBuffer(string: head + "\r\n" + body)
        let channel = context.channel
        // Straight onto the socket: the HTTP encoders behind this handler expect HTTP parts.
        context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in channel.close(promise: nil) }
    }
}
