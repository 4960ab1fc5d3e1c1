import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// Korbit's public WebSocket at `/v2/public`: text frames; a subscribe request is a JSON array
/// of `{"requestId","method":"subscribe","type":"ticker","symbols":[…]}`; acknowledged when it
/// has a `requestId`; `invalid_format` for anything else (the socket stays open);
/// `INVALID_SYMBOL` for an unknown pair; a snapshot per symbol (`"snapshot":true`), then
/// updates without the key. Stopped pairs send their snapshot and nothing more. `orderbook` and
/// `trade` channels carry whole books and new trades (`SimDepthSender`).
struct KorbitStreamController: Sendable {
    let exchange: SimExchange

    func addRoutes(to router: Router<SimRequestContext>) {
        router.ws("/v2/public") { _, _ in
            exchange.count("upbit", "websocket")
            return exchange.faults.wsRefuse ? .dontUpgrade : .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            let inbox = SimTickerPump.Inbox()
            let state = SimStreamConnectionState(clock: exchange.configuration.clock)
            let id = exchange.hub.register(state)
            defer { exchange.hub.unregister(id) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await read(inbound, inbox) }
                group.addTask { await pump.run(outbound, inbox, dropped: state) }
                await group.next()
                group.cancelAll()
            }
        }
    }

    private struct Request: Decodable {
        var requestId: Int?
        var method: String?
        var type: String?
        var symbols: [String]?
    }

    /// Korbit's frames; a stopped pair sends its snapshot and nothing more.
    private var pump: SimTickerPump {
        SimTickerPump(
            exchange: exchange,
            seed: exchange.configuration.seed ^ 0x4B0B,
            frame: { [exchange] market, rank, ms, first in
                KorbitWriter.tickerFrame(
                    market,
                    exchange.streamTicker(market, atMilliseconds: ms),
                    snapshot: first,
                    stopped: first && KorbitWriter.isStopped(market, rank: rank)
                )
            },
            still: { market, rank in KorbitWriter.isStopped(market, rank: rank) },
            depthStyle: .korbit
        )
    }

    private func read(_ inbound: WebSocketInboundStream, _ inbox: SimTickerPump.Inbox) async {
        do {
            for try await message in inbound.messages(maxSize: 1 << 20) {
                while exchange.faults.wsStall, !Task.isCancelled { try await Task.sleep(for: .milliseconds(50)) }
                let data: Data
                switch message {
                case .text(let text): data = Data(text.utf8)
                case .binary(let buffer): data = Data(buffer.readableBytesView)
                }
                guard let requests = try? JSONDecoder().decode([Request].self, from: data) else {
                    inbox.reply(#"{"status":"fail","message":"invalid_format"}"#)
                    continue
                }
                exchange.count("upbit", "websocket-subscribe")
                for request in requests { handle(request, inbox) }
            }
        } catch {}
        inbox.leave()
    }

    private func handle(_ request: Request, _ inbox: SimTickerPump.Inbox) {
        let codes = Dictionary(exchange.universe.markets.map { (KorbitWriter.symbol($0), $0.code) }, uniquingKeysWith: { a, _ in a })
        let symbols = request.symbols ?? []
        var reply: String?
        if request.type != "ticker" && request.type != "orderbook" && request.type != "trade" {
            reply = #"{"status":"fail","code":"INVALID_REQUEST","message":"invalid_type""# + requestIDSuffix(request) + "}"
        } else if let unknown = symbols.first(where: { codes[$0] == nil }) {
            reply =
                #"{"status":"fail","code":"INVALID_SYMBOL","message":"The symbol does not exist (\#(unknown.prefix(40)))""#
                + requestIDSuffix(request) + "}"
        } else {
            if request.requestId != nil { reply = #"{"status":"success""# + requestIDSuffix(request) + "}" }
            let chosen = symbols.compactMap { codes[$0] }
            if request.type != "ticker" {
                inbox.depth(books: request.type == "orderbook", chosen, remove: request.method == "unsubscribe")
            } else if request.method == "unsubscribe" {
                inbox.unsubscribe(chosen)
            } else {
                inbox.subscribe(chosen)
            }
        }
        if let reply { inbox.reply(reply) }
    }

    private func requestIDSuffix(_ request: Request) -> String {
        request.requestId.map { #","requestId":\#($0)"# } ?? ""
    }
}
