import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// Coinone's public WebSocket at `/coinone/stream` (the live one is the root of its own host):
/// `CONNECTED` on open; one JSON object per request — `SUBSCRIBE`/`UNSUBSCRIBE` of one topic on
/// `TICKER` (acknowledged, then the ticker at once and on every move), `PING` (answered `PONG`);
/// `ERROR` 160010 for what is not JSON, 160011 for a bad type, and for an unknown pair the ack
/// first, then 160012 naming no topic, as Coinone does. The socket stays open after errors.
struct CoinoneStreamController: Sendable {
    let exchange: SimExchange

    func addRoutes(to router: Router<SimRequestContext>) {
        router.ws("/coinone/stream") { _, _ in
            exchange.count("upbit", "websocket")
            return exchange.faults.wsRefuse ? .dontUpgrade : .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            let inbox = SimTickerPump.Inbox()
            let state = SimStreamConnectionState(clock: exchange.configuration.clock)
            let id = exchange.hub.register(state)
            defer { exchange.hub.unregister(id) }
            inbox.reply(#"{"response_type":"CONNECTED","data":{"session_id":"sim-\#(id)"}}"#)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await read(inbound, inbox) }
                group.addTask { await pump.run(outbound, inbox, dropped: state) }
                await group.next()
                group.cancelAll()
            }
        }
    }

    private var pump: SimTickerPump {
        SimTickerPump(
            exchange: exchange,
            seed: exchange.configuration.seed ^ 0xC01E,
            frame: { [exchange] market, _, ms, _ in
                CoinoneWriter.tickerFrame(market, exchange.streamTicker(market, atMilliseconds: ms))
            }
        )
    }

    private struct Request: Decodable {
        struct Topic: Decodable {
            var quote_currency: String?
            var target_currency: String?
        }

        var request_type: String?
        var channel: String?
        var topic: Topic?
        var format: String?
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
                guard let request = try? JSONDecoder().decode(Request.self, from: data) else {
                    inbox.reply(#"{"response_type":"ERROR","error_code":160010,"message":"Invalid Request"}"#)
                    continue
                }
                handle(request, inbox)
            }
        } catch {}
        inbox.leave()
    }

    private func handle(_ request: Request, _ inbox: SimTickerPump.Inbox) {
        switch request.request_type {
        case "PING":
            inbox.reply(#"{"response_type":"PONG"}"#)
        case "SUBSCRIBE", "UNSUBSCRIBE":
            guard let channel = request.channel, ["TICKER", "ORDERBOOK", "TRADE"].contains(channel) else {
                return inbox.reply(#"{"response_type":"ERROR","error_code":160011,"message":"Invalid Type","field":"channel"}"#)
            }
            exchange.count("upbit", "websocket-subscribe")
            let quote = (request.topic?.quote_currency ?? "").uppercased()
            let target = (request.topic?.target_currency ?? "").uppercased()
            let ack = request.request_type == "SUBSCRIBE" ? "SUBSCRIBED" : "UNSUBSCRIBED"
            inbox.reply(
                #"{"response_type":"\#(ack)","channel":"\#(channel)","data":{"quote_currency":"\#(quote.prefix(12))","target_currency":"\#(target.prefix(12))"}}"#
            )
            let delisted = Set(exchange.faults.delisted)
            guard let market = exchange.universe.markets.first(where: { $0.quote == quote && $0.base == target }), !delisted.contains(market.code)
            else {
                return inbox.reply(#"{"response_type":"ERROR","error_code":160012,"message":"Invalid Topic"}"#)
            }
            guard channel == "TICKER" else { return }
            if request.request_type == "SUBSCRIBE" { inbox.subscribe([market.code]) } else { inbox.unsubscribe([market.code]) }
        default:
            inbox.reply(#"{"response_type":"ERROR","error_code":160011,"message":"Invalid Type","field":"request_type"}"#)
        }
    }
}
