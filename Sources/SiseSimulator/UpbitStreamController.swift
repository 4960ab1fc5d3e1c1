import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// Upbit's quotation WebSocket at `/websocket/v1`: binary JSON frames, a SNAPSHOT per code,
/// then REALTIME frames at the configured rate, error frames for bad requests, text `PING` →
/// `{"status":"UP"}` every 10 s, and the WebSocket fault switches.
struct UpbitStreamController: Sendable {
    let exchange: SimExchange
    let hub: SimStreamHub
    /// Upbit's path; Bithumb's (same protocol) is `/bithumb/websocket/v1` here.
    var path = "/websocket/v1"

    func addRoutes(to router: Router<SimRequestContext>) {
        router.ws(RouterPath(path)) { request, context in
            if exchange.faults.wsRefuse {
                exchange.count("upbit", "websocket")
                return .dontUpgrade
            }
            switch exchange.upgradeGate(origin: request.headers[.origin] != nil, client: context.clientAddress) {
            case .limited(let group):
                SimUpgradeRefusal.tooManyRequests(group: group, on: context.channel)
                return .dontUpgrade
            case .upgrade(let remaining):
                var headers = HTTPFields()
                headers[HTTPField.Name("Remaining-Req")!] = "group=websocket; min=300; sec=\(remaining)"
                return .upgrade(headers)
            }
        } onUpgrade: { inbound, outbound, _ in
            let state = SimStreamConnectionState(clock: exchange.configuration.clock)
            let id = hub.register(state)
            defer { hub.unregister(id) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await read(inbound, into: state) }
                group.addTask { await send(outbound, state: state, seed: id) }
                await group.next()
                state.drop()
                group.cancelAll()
            }
        }
    }

    /// Reads requests: a JSON array (re)subscribes, a text `PING` turns on status frames.
    /// While `wsStall` is on nothing is read either, so WebSocket pings go unanswered: the
    /// connection is frozen the way a stalled network path freezes it.
    private func read(_ inbound: WebSocketInboundStream, into state: SimStreamConnectionState) async {
        do {
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            while true {
                while exchange.faults.wsStall, !Task.isCancelled { try await Task.sleep(for: .milliseconds(50)) }
                guard let message = try await messages.next() else { break }
                guard state.admitMessage() else {
                    state.update { $0.failure = .tooManyRequests }
                    continue
                }
                let data: Data
                switch message {
                case .text(let text):
                    if text == "PING" {
                        exchange.count("upbit", "websocket-ping")
                        state.update { $0.statusPings = true }
                        continue
                    }
                    data = Data(text.utf8)
                case .binary(let buffer):
                    data = Data(buffer.readableBytesView)
                }
                do {
                    let subscription = try SimSubscription.parse(data) { exchange.universe.market($0) != nil }
                    exchange.count("upbit", "websocket-subscribe")
                    state.update { $0.subscription = subscription }
                } catch {
                    state.update { $0.failure = error }
                }
            }
        } catch {}
        state.update { $0.clientGone = true }
    }

    private func send(_ outbound: WebSocketOutboundWriter, state: SimStreamConnectionState, seed: UInt64) async {
        var random = SimRandom(seed: exchange.configuration.seed ^ (seed &* 0x9E37_79B9))
        let opened = ContinuousClock.now
        var current: SimSubscription?
        var markets: [SimMarket] = []
        var sent = 0.0
        var rateStart = ContinuousClock.now
        var lastStatus = ContinuousClock.now
        var pinChanges = exchange.pins.changes
        var depth = SimDepthSender(exchange: exchange, style: .upbit)
        func write(_ frames: [String]) async throws {
            for text in frames {
                try await outbound.write(.binary(ByteBuffer(string: text)))
                exchange.count("upbit", "websocket-depth-frames")
            }
        }
        do {
            while !Task.isCancelled {
                let inbox = state.take()
                if inbox.dropped || inbox.clientGone { return }
                let faults = exchange.faults
                let age = opened.duration(to: .now)
                if faults.wsDropEverySeconds > 0, age >= .milliseconds(Int64(faults.wsDropEverySeconds * 1_000)) { return }
                // Upbit closes a socket idle for 120 s. WebSocket ping frames are answered inside
                // the server library, out of this handler's sight: the keep-alive it sees is the
                // text `PING` (or a request), which Upbit documents as the other way to stay open.
                if inbox.lastInbound.duration(to: exchange.configuration.clock.now) >= exchange.configuration.wsIdleTimeout { return }
                if let failure = inbox.failure {
                    try await outbound.write(.binary(ByteBuffer(string: errorFrame(failure))))
                    try await outbound.close(.normalClosure, reason: nil)
                    return
                }
                if faults.wsStall {
                    try await Task.sleep(for: .milliseconds(50))
                    continue
                }
                if let subscription = inbox.subscription {
                    current = subscription
                    markets = subscription.codes.compactMap { exchange.universe.market($0) }
                    if !subscription.onlyRealtime {
                        for market in markets {
                            try await outbound.write(.binary(ByteBuffer(string: frame(market, subscription.format, snapshot: true))))
                            exchange.count("upbit", "websocket-frames")
                        }
                    }
                    (sent, rateStart) = (0, .now)
                    let listed = { (codes: [String]) in codes.compactMap { exchange.universe.market($0) } }
                    try await write(
                        depth.subscribe(
                            books: listed(subscription.bookCodes),
                            tapes: listed(subscription.tradeCodes),
                            realtimeOnly: subscription.onlyRealtime
                        )
                    )
                    state.depthCodes = depth.codes
                }
                try await write(depth.due())
                // A price set by hand goes out at once for the markets subscribed.
                let pins = exchange.pins
                if pins.changes != pinChanges, let subscription = current, !subscription.onlySnapshot {
                    pinChanges = pins.changes
                    for market in markets where pins.codes.contains(market.code) {
                        try await outbound.write(.binary(ByteBuffer(string: frame(market, subscription.format, snapshot: false))))
                        exchange.count("upbit", "websocket-frames")
                    }
                }
                if inbox.statusPings, lastStatus.duration(to: .now) >= .seconds(10) {
                    try await outbound.write(.binary(ByteBuffer(string: #"{"status":"UP"}"#)))
                    lastStatus = .now
                }
                if let subscription = current, !subscription.onlySnapshot, !markets.isEmpty, faults.wsRate > 0 {
                    let elapsed =
                        Double(rateStart.duration(to: .now).components.attoseconds) / 1e18
                        + Double(rateStart.duration(to: .now).components.seconds)
                    let due = min(Int(elapsed * faults.wsRate - sent), 5_000)
                    for _ in 0..<max(due, 0) {
                        let market = markets[Int(random.next() % UInt64(markets.count))]
                        let garbage = faults.wsGarbageRate > 0 && Double.random(in: 0..<1, using: &random) < faults.wsGarbageRate
                        let text = garbage ? "\u{1}not-json{{" : frame(market, subscription.format, snapshot: false)
                        try await outbound.write(.binary(ByteBuffer(string: text)))
                        exchange.count("upbit", "websocket-frames")
                    }
                    sent += Double(max(due, 0))
                    if elapsed > 10 { (sent, rateStart) = (0, .now) }
                }
                try await Task.sleep(for: SimFaults.streamBeat)
            }
        } catch {}
    }

    private func frame(_ market: SimMarket, _ format: SimSubscription.Format, snapshot: Bool) -> String {
        let state = exchange.streamTicker(market, atMilliseconds: Int64(exchange.now * 1_000))
        return SimStreamTickerWriter.write(market, state, format: format, snapshot: snapshot)
    }

    private func errorFrame(_ failure: SimSubscription.Failure) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("error")
        json.beginObject()
        json.field("name", failure.name)
        json.field("message", failure.message)
        json.endObject()
        json.endObject()
        return json.text
    }
}
