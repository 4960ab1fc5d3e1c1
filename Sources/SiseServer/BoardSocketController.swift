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

    func addRoutes(to router: Router<SiseRequestContext>) {
        router.ws("/ws") { request, _ in
            // Cross-site WebSocket hijacking: only Sise's own pages may connect.
            origin.acceptsOrigin(request.headers[.origin]) ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            let language = LanguagePreference.of(context.request)
            let client = BoardClient(deviceID: context.requestContext.deviceID, view: nil)
            let id = hub.add(client)
            defer { hub.remove(id) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await message in inbound.messages(maxSize: 16 * 1_024) {
                            guard case .text(let text) = message else { continue }
                            do {
                                let (parameters, lang) = try BoardClientView.parse(text, fallbackLanguage: language)
                                await hub.setView(client, parameters: parameters, language: lang)
                            } catch let error as APIError {
                                client.reject(error)
                            }
                        }
                    } catch {}
                }
                group.addTask {
                    for await _ in client.doorbell {
                        for message in client.drain() {
                            let frame = WebSocketFrame(fin: true, opcode: .text, data: message)
                            do { try await outbound.write(.custom(frame)) } catch { return }
                        }
                    }
                }
                await group.next()
                group.cancelAll()
                client.close()
            }
        }
    }
}
