import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import SiseCore

/// `/ws`: the browser sends its view and gets a snapshot of it, then patches, status frames
/// and heartbeats. The browser never talks to Upbit itself.
struct BoardSocketController {
    let hub: BoardSocketHub
    /// A page's socket send buffer (the kernel doubles it): a few seconds of a full board's
    /// patches, far above what one write needs.
    static let sendBuffer = 64 * 1_024
    let origin: PublicOrigin
    let metrics: ServerMetrics
    /// New connections per client address and device.
    let connects: ConnectRate
    let rateLimitsLoopback: Bool
    /// What a page's views are paced on.
    let ticks: any MonotonicClock
    /// View changes are applied at most this often per connection (the newest wins).
    static let viewInterval = Duration.milliseconds(250)
    /// More messages than this in a second closes the connection.
    static let maxMessagesPerSecond = 20

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        // A plain request for /ws: nothing to show but how to ask (RFC 9110 §15.5.22).
        _ = router.add(middleware: UpgradeRequiredMiddleware())
        router.ws("/ws") { request, context in
            // Cross-site WebSocket hijacking: only Sise's own pages may connect.
            guard origin.acceptsOrigin(request.headers[.origin]) else { return .dontUpgrade }
            context.webSocketSlot.releaseOnClose(of: context.channel, census: metrics.pages)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            if let wait = admission(context.requestContext) {
                await refuse(outbound, retryAfter: wait, language: LanguagePreference.of(context.request))
                return
            }
            let language = LanguagePreference.of(context.request)
            let channel = context.requestContext.channel
            // A page that stops reading must back up into its outbox, where batches merge, and
            // not into the kernel: with the socket's send buffer left to grow (up to 4 MB on
            // Linux) a stalled page kept megabytes of old batches and got them all back first.
            try? await channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: Self.sendBuffer).get()
            let page = PageSocket(channel: channel, encoding: .negotiated(context.request.headers), metrics: metrics)
            let client = BoardClient(deviceID: context.requestContext.owner, view: nil, page: page)
            // Without its wire handler the page could be sent nothing: end the connection. The
            // handler must not own the outbox (the outbox owns the page, whose box holds the
            // handler): a strong capture made a cycle that kept every page that ever connected —
            // its channel, outbox and deflate stream, ≈170 KB — after it closed. Nor does it hold
            // a weak reference: that gives the outbox a side table, and every retain of it (a few
            // per page per batch) then takes the runtime's slow path. It names the page to the
            // hub, which knows it while it is open (a socket drains seldom; the look-up is cheap).
            let id = ObjectIdentifier(client)
            do { try await page.install(onWritable: { hub.schedule(id) }) } catch { return }
            hub.add(client)
            // Views are applied by a task of their own only while they change (`ViewPacer`); the
            // browser's messages are read in the connection's own task, and the hub writes to the
            // page on the channel's event loop. An idle page is one task, not two or four (each
            // task keeps its own stack: ≈ 5 KB a page, 50 MB at 10,000 pages). The connection ends
            // when the browser closes it, or at shutdown, when the WebSocket handler closes it.
            let views = ViewPacer(interval: Self.viewInterval, clock: ticks, census: metrics.pages) { view in
                await hub.setView(client, parameters: view.0, language: view.1)
            }
            // A frame or message the library refuses (bad UTF-8 in a compressed message, a message
            // over the limit) ends the reading with its close code: passed on, so the connection
            // closes with it rather than with 1000.
            var refusal: (any Error)?
            do { try await read(inbound, outbound, client: client, views: views, language: language) } catch { refusal = error }
            // No view lands after the page has left the hub.
            await views.close()
            hub.remove(client)
            if let refusal, !(refusal is CancellationError) { throw refusal }
        }
    }

    /// nil when the client may open another page now, else how long until it may.
    private func admission(_ context: SiseRequestContext) -> Duration? {
        let identities = context.clientIdentities.filter { rateLimitsLoopback || !($0.hasPrefix("ip:") && context.isLoopback) }
        return connects.take(identities, at: .now)
    }

    /// Too many connections from this client: it is told when to come back, in a message and
    /// in the close code (1013, try again later) the page backs off from.
    private func refuse(_ outbound: WebSocketOutboundWriter, retryAfter wait: Duration, language: Language) async {
        metrics.webSocketRefusals.increment()
        let seconds = max(1, Int(wait.components.seconds) + (wait.components.attoseconds > 0 ? 1 : 0))
        let failure = BoardSocketMessage.Failure(
            code: "too_many_connections",
            message: RefusalText.tooManyPages(language, ["seconds": String(seconds)]),
            retryAfter: seconds
        )
        if let text = try? BoardSocketMessage.encode(failure) { try? await outbound.write(.text(text)) }
        try? await outbound.close(.unknown(Self.tryAgainLater), reason: "retry after \(seconds) s")
    }

    /// RFC 6455 §7.4.1 (IANA registry): the server is overloaded, try again later.
    static let tryAgainLater: UInt16 = 1_013

    /// A view change is only noted (the newest wins); a client that floods messages is cut off.
    /// Nothing here waits on the hub: what may take a while runs as the page's errands, so each
    /// message is counted as it arrives (a steady 18 a second was cut off when one slow 호가 watch
    /// held the loop and the messages behind it were then counted at once).
    private func read(
        _ inbound: WebSocketInboundStream,
        _ outbound: WebSocketOutboundWriter,
        client: BoardClient,
        views: ViewPacer,
        language: Language
    ) async throws {
        var rate = MessageRate(perSecond: Self.maxMessagesPerSecond)
        let errands = PageErrands()
        do {
            for try await message in inbound.messages(maxSize: 16 * 1_024) {
                guard rate.admit(at: .now) else {
                    let error = APIError(status: .tooManyRequests, code: "too_many_messages", RefusalText.tooManyMessages)
                    try? await outbound.write(.text(BoardClient.errorMessage(error, language)))
                    try? await outbound.close(.policyViolation, reason: "too many messages")
                    return
                }
                guard case .text(let text) = message else { continue }
                if let watch = BoardSocketMessage.PortfolioWatch.parse(text) {
                    errands.post(.portfolio) { [hub] in await hub.watchPortfolio(client, watch.watch) }
                    continue
                }
                if let depth = BoardSocketMessage.DepthWatch.parse(text) {
                    let watchLanguage = client.view?.language ?? language
                    errands.post(.depth) { [hub] in
                        await hub.watchDepth(client, exchange: depth.exchange, market: depth.market, language: watchLanguage)
                    }
                    continue
                }
                let window = BoardSocketMessage.Window.read(text)
                if window.standalone {
                    hub.setWindow(client, window.ranks)
                    continue
                }
                // A view may name its window; without one, the page gets every row.
                client.setWindow(window.ranks)
                do {
                    views.post(try BoardClientView.parse(text, fallbackLanguage: language))
                } catch let error as APIError {
                    client.reject(error, language)
                }
            }
        } catch {
            await errands.close()
            throw error
        }
        // No errand lands after the page has left the hub.
        await errands.close()
    }
}

/// `/ws` asked without a WebSocket upgrade: 426 with `Upgrade: websocket`, not an empty 200.
struct UpgradeRequiredMiddleware: RouterMiddleware {
    typealias Context = SiseRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path == "/ws", request.method == .get || request.method == .head,
            request.headers[.upgrade]?.lowercased().contains("websocket") != true
        else { return try await next(request, context) }
        var error = APIError(status: .upgradeRequired, code: "upgrade_required", RefusalText.webSocketOnly)
        error.headers[.upgrade] = "websocket"
        throw error
    }
}
