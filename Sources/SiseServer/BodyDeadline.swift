import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// A request body is held to a deadline and a pace, as the connection guard holds the head: once
/// `grace` has passed its bytes must have come at `minimumRate` a second on average, and all of it
/// within `timeout` — counting only the time the server was waiting for the client (a read asked
/// for and not yet answered): a server slow to take in a body under load (its reads held back)
/// never blames the client for it. A client that trickles a body a byte a second (`Content-Length: 10000`) gets
/// a JSON 408 `body_timeout` and loses its connection, instead of holding it — and the handler
/// waiting on that body — for hours. A request the server answered before its body ended (a 404, a
/// refused token) is still judged: the rest of the body holds the connection as much; it is closed
/// without a second answer.
final class BodyDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    struct Rules: Sendable {
        var timeout: TimeAmount
        var grace: TimeAmount
        /// Bytes a second, on average since the head, once `grace` has passed.
        var minimumRate: Int
    }

    private let rules: Rules
    /// The body being read: how much of it has arrived, and how long the server has waited on the
    /// client for it (`waited`, and the read asked for since `asked`, not answered yet).
    private var reading = false
    private var received = 0
    private var waited = TimeAmount.zero
    private var asked: NIODeadline?
    private var check: RepeatedTask?
    private var answered = false
    /// The server has begun its answer to the request whose body is being read.
    private var responding = false

    init(rules: Rules) {
        self.rules = rules
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if answered { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            responding = false
            if Self.hasBody(head) { begin(context) }
        case .body(let chunk):
            received += chunk.readableBytes
            if let asked {
                waited = waited + (.now() - asked)
                self.asked = nil
            }
        case .end:
            stop()
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        if reading && asked == nil { asked = .now() }
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // An answer on its way: a late body then closes the connection without a second one.
        if case .head = unwrapOutboundIn(data) { responding = true }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    /// A body follows the head: a length above zero, or chunks.
    static func hasBody(_ head: HTTPRequest) -> Bool {
        if head.headerFields[.transferEncoding] != nil { return true }
        guard let length = head.headerFields[.contentLength] else { return false }
        return length != "0"
    }

    /// Whether a body `received` bytes long, the server having waited `elapsed` on it, is too late
    /// or too slow.
    static func overdue(received: Int, elapsed: TimeAmount, rules: Rules) -> Bool {
        if elapsed >= rules.timeout { return true }
        guard elapsed >= rules.grace else { return false }
        return Double(received) < Double(rules.minimumRate) * Double(elapsed.nanoseconds) / 1_000_000_000
    }

    private func begin(_ context: ChannelHandlerContext) {
        stop()
        reading = true
        received = 0
        waited = .zero
        asked = nil
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            let (handler, context) = loopBound.value
            handler.judge(context)
        }
    }

    private func judge(_ context: ChannelHandlerContext) {
        guard reading, !answered else { return }
        let waiting = waited + (asked.map { .now() - $0 } ?? .zero)
        guard Self.overdue(received: received, elapsed: waiting, rules: rules) else { return }
        answered = true
        stop()
        if responding {
            context.close(promise: nil)
        } else {
            ClosingAnswer.send(context, status: .requestTimeout, code: "body_timeout", message: "the request body did not arrive in time")
        }
    }

    private func stop() {
        check?.cancel()
        check = nil
        reading = false
        asked = nil
    }
}
