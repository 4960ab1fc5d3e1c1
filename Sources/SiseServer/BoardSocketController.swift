import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOWebSocket
import SiseCore

/// `/ws`: the browser sends its view and gets a snapshot of it, then patches, status frames
/// and heartbeats. The browser never talks to Upbit itself.
struct BoardSocketController {
    let hub: BoardSocketHub
    let origin: PublicOrigin
    let metrics: ServerMetrics
    /// View changes are applied at most this often per connection (the newest wins).
    static let viewInterval = Duration.milliseconds(250)
    /// More messages than this in a second closes the connection.
    static let maxMessagesPerSecond = 20

    func addRoutes(to router: Router<SiseRequestContext>) {
        router.ws("/ws") { request, _ in
            // Cross-site WebSocket hijacking: only Sise's own pages may connect.
            origin.acceptsOrigin(request.headers[.origin]) ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            let language = LanguagePreference.of(context.request)
            let channel = context.requestContext.channel
            let page = PageSocket(channel: channel, encoding: .negotiated(context.request.headers),
                                  framesOut: metrics.framesOut, bytesOut: metrics.bytesOut, slowMerges: metrics.slowMerges)
            let client = BoardClient(deviceID: context.requestContext.owner, view: nil, page: page)
            // Without its wire handler the page could be sent nothing: end the connection.
            do { try await page.install(onWritable: { client.schedule() }) } catch { return }
            hub.add(client)
            // Views are applied by a task of their own only while they change (`ViewPacer`); the
            // browser's messages are read in the connection's own task, and the hub writes to the
            // page on the channel's event loop. An idle page is one task, not two or four (each
            // task keeps its own stack: ≈ 5 KB a page, 50 MB at 10,000 pages). The connection ends
            // when the browser closes it, or at shutdown, when the WebSocket handler closes it.
            let views = ViewPacer(interval: Self.viewInterval) { view in
                await hub.setView(client, parameters: view.0, language: view.1)
            }
            await read(inbound, outbound, client: client, views: views, language: language)
            // No view lands after the page has left the hub.
            await views.close()
            hub.remove(client)
        }
    }

    /// A view change is only noted (the newest wins); a client that floods messages is cut off.
    private func read(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, client: BoardClient,
                      views: ViewPacer, language: Language) async {
        var rate = MessageRate(perSecond: Self.maxMessagesPerSecond)
        do {
            for try await message in inbound.messages(maxSize: 16 * 1_024) {
                guard rate.admit(at: .now) else {
                    let error = APIError(status: .tooManyRequests, code: "too_many_messages",
                                         message: "too many messages; the connection is closed")
                    try? await outbound.write(.text(BoardClient.errorMessage(error)))
                    try? await outbound.close(.policyViolation, reason: "too many messages")
                    return
                }
                guard case .text(let text) = message else { continue }
                if let watch = BoardSocketMessage.PortfolioWatch.parse(text) {
                    await hub.watchPortfolio(client, watch.watch)
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
                    client.reject(error)
                }
            }
        } catch {}
    }
}
