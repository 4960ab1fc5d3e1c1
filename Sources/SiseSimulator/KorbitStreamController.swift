import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// Korbit's public WebSocket at `/v2/public`: text frames; a subscribe request is a JSON array
/// of `{"requestId","method":"subscribe","type":"ticker","symbols":[…]}`; acknowledged when it
/// has a `requestId`; `invalid_format` for anything else (the socket stays open);
/// `INVALID_SYMBOL` for an unknown pair; a snapshot per symbol (`"snapshot":true`), then
/// updates without the key. Stopped pairs send their snapshot and nothing more.
struct KorbitStreamController: Sendable {
    let exchange: SimExchange

    /// What the reader tells the writer.
    final class Inbox: Sendable {
        struct State {
            var symbols: [String] = []
            var fresh: [String] = []
            var replies: [String] = []
            var gone = false
        }
        let state = Mutex(State())
    }

    func addRoutes(to router: Router<SimRequestContext>) {
        router.ws("/v2/public") { _, _ in
            exchange.count("upbit", "websocket")
            return exchange.faults.wsRefuse ? .dontUpgrade : .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            let inbox = Inbox()
            let state = SimStreamConnectionState()
            let id = exchange.hub.register(state)
            defer { exchange.hub.unregister(id) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await read(inbound, inbox) }
                group.addTask { await write(outbound, inbox, dropped: state) }
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

    private func read(_ inbound: WebSocketInboundStream, _ inbox: Inbox) async {
        do {
            for try await message in inbound.messages(maxSize: 1 << 20) {
                while exchange.faults.wsStall, !Task.isCancelled { try await Task.sleep(for: .milliseconds(50)) }
                let data: Data
                switch message {
                case .text(let text): data = Data(text.utf8)
                case .binary(let buffer): data = Data(buffer.readableBytesView)
                }
                guard let requests = try? JSONDecoder().decode([Request].self, from: data) else {
                    inbox.state.withLock { $0.replies.append(#"{"status":"fail","message":"invalid_format"}"#) }
                    continue
                }
                exchange.count("upbit", "websocket-subscribe")
                for request in requests { handle(request, inbox) }
            }
        } catch {}
        inbox.state.withLock { $0.gone = true }
    }

    private func handle(_ request: Request, _ inbox: Inbox) {
        let known = Set(exchange.universe.markets.map(KorbitWriter.symbol))
        let symbols = request.symbols ?? []
        var reply: String?
        if request.type != "ticker" && request.type != "orderbook" && request.type != "trade" {
            reply = #"{"status":"fail","code":"INVALID_REQUEST","message":"invalid_type""# + requestIDSuffix(request) + "}"
        } else if let unknown = symbols.first(where: { !known.contains($0) }) {
            reply = #"{"status":"fail","code":"INVALID_SYMBOL","message":"The symbol does not exist (\#(unknown.prefix(40)))""#
                + requestIDSuffix(request) + "}"
        } else {
            if request.requestId != nil { reply = #"{"status":"success""# + requestIDSuffix(request) + "}" }
            inbox.state.withLock { state in
                if request.method == "unsubscribe" {
                    state.symbols.removeAll { symbols.contains($0) }
                } else if request.type == "ticker" {
                    for symbol in symbols where !state.symbols.contains(symbol) { state.symbols.append(symbol) }
                    state.fresh += symbols
                }
            }
        }
        if let reply { inbox.state.withLock { $0.replies.append(reply) } }
    }

    private func requestIDSuffix(_ request: Request) -> String {
        request.requestId.map { #","requestId":\#($0)"# } ?? ""
    }

    private func write(_ outbound: WebSocketOutboundWriter, _ inbox: Inbox, dropped: SimStreamConnectionState) async {
        let opened = ContinuousClock.now
        var random = SimRandom(seed: exchange.configuration.seed ^ 0x4B0B)
        var sent = 0.0
        let rateStart = ContinuousClock.now
        let ranks = Dictionary(uniqueKeysWithValues: exchange.universe.markets.enumerated().map { (KorbitWriter.symbol($1), ($1, $0)) })
        var pinChanges = exchange.pins.changes
        do {
            while !Task.isCancelled {
                if dropped.take().dropped { return }
                let (symbols, fresh, replies, gone) = inbox.state.withLock { s in
                    defer { s.fresh = []; s.replies = [] }
                    return (s.symbols, s.fresh, s.replies, s.gone)
                }
                if gone { return }
                let faults = exchange.faults
                if faults.wsDropEverySeconds > 0, opened.duration(to: .now) >= .milliseconds(Int64(faults.wsDropEverySeconds * 1_000)) { return }
                for reply in replies { try await outbound.write(.text(reply)) }
                if faults.wsStall {
                    try await Task.sleep(for: .milliseconds(50))
                    continue
                }
                let ms = Int64(exchange.now * 1_000)
                for symbol in fresh {
                    guard let (market, rank) = ranks[symbol] else { continue }
                    let frame = KorbitWriter.tickerFrame(market, exchange.streamTicker(market, atMilliseconds: ms), snapshot: true,
                                                         stopped: KorbitWriter.isStopped(market, rank: rank))
                    try await outbound.write(.text(frame))
                    exchange.count("upbit", "websocket-frames")
                }
                let live = symbols.compactMap { ranks[$0] }.filter { !KorbitWriter.isStopped($0.0, rank: $0.1) }
                // A price set by hand goes out at once for the pairs subscribed.
                let pins = exchange.pins
                if pins.changes != pinChanges {
                    pinChanges = pins.changes
                    for (market, _) in live where pins.codes.contains(market.code) {
                        try await outbound.write(.text(KorbitWriter.tickerFrame(market, exchange.streamTicker(market, atMilliseconds: ms),
                                                                                snapshot: false, stopped: false)))
                        exchange.count("upbit", "websocket-frames")
                    }
                }
                if !live.isEmpty, faults.wsRate > 0 {
                    let elapsed = Double(rateStart.duration(to: .now).components.seconds)
                        + Double(rateStart.duration(to: .now).components.attoseconds) / 1e18
                    let due = min(Int(elapsed * faults.wsRate - sent), 5_000)
                    for _ in 0..<max(due, 0) {
                        let (market, _) = live[Int(random.next() % UInt64(live.count))]
                        let garbage = faults.wsGarbageRate > 0 && Double.random(in: 0..<1, using: &random) < faults.wsGarbageRate
                        let text = garbage ? "not-json{{" : KorbitWriter.tickerFrame(market, exchange.streamTicker(market, atMilliseconds: ms),
                                                                                     snapshot: false, stopped: false)
                        try await outbound.write(.text(text))
                        exchange.count("upbit", "websocket-frames")
                    }
                    sent += Double(max(due, 0))
                }
                let pause = faults.wsRate > 0 ? min(0.02, 1 / faults.wsRate) : 0.02
                try await Task.sleep(for: .milliseconds(max(1, Int64(pause * 1_000))))
            }
        } catch {}
    }
}
