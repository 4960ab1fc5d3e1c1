import Foundation
import HummingbirdWebSocket
import Synchronization

/// The writing half of a simulated exchange stream that subscribes market by market (Korbit's,
/// Coinone's): replies to requests, a first frame for each market just subscribed, a price set
/// by hand at once, then `wsRate` frames a second over the subscribed markets — with the venue's
/// faults (stall, garbage, drops every few seconds, drop now). The venue says only how a frame
/// reads and which markets never change (a stopped pair).
struct SimTickerPump: Sendable {
    let exchange: SimExchange
    let seed: UInt64
    /// A ticker frame of `market` at `ms`; `first` for the one sent on subscribing.
    let frame: @Sendable (_ market: SimMarket, _ rank: Int, _ ms: Int64, _ first: Bool) -> String
    /// Markets that send their first frame and nothing more.
    var still: @Sendable (_ market: SimMarket, _ rank: Int) -> Bool = { _, _ in false }
    /// How the venue spells 호가/체결 frames, if its stream carries them (Korbit's does here).
    var depthStyle: SimDepthSender.Style? = nil

    /// What the reading half tells the writing half.
    final class Inbox: Sendable {
        struct State {
            /// Market codes subscribed, in order.
            var codes: [String] = []
            var fresh: [String] = []
            var replies: [String] = []
            var gone = false
            /// Book and tape requests, in order: markets added (or removed) per channel.
            var depth: [(books: Bool, codes: [String], remove: Bool)] = []
        }
        let state = Mutex(State())

        func subscribe(_ codes: [String]) {
            state.withLock { state in
                for code in codes where !state.codes.contains(code) { state.codes.append(code) }
                state.fresh += codes
            }
        }

        func unsubscribe(_ codes: [String]) { state.withLock { $0.codes.removeAll { codes.contains($0) } } }
        /// A `orderbook` (`books`) or `trade` channel request.
        func depth(books: Bool, _ codes: [String], remove: Bool) { state.withLock { $0.depth.append((books, codes, remove)) } }
        func reply(_ text: String) { state.withLock { $0.replies.append(text) } }
        func leave() { state.withLock { $0.gone = true } }
    }

    func run(_ outbound: WebSocketOutboundWriter, _ inbox: Inbox, dropped: SimStreamConnectionState) async {
        let opened = ContinuousClock.now
        var random = SimRandom(seed: seed)
        var sent = 0.0
        let ranks = Dictionary(uniqueKeysWithValues: exchange.universe.markets.enumerated().map { ($1.code, ($1, $0)) })
        var pinChanges = exchange.pins.changes
        let still = still
        var depth = depthStyle.map { SimDepthSender(exchange: exchange, style: $0, still: { still($0, ranks[$0.code]?.1 ?? 0) }) }
        func write(_ text: String) async throws {
            try await outbound.write(.text(text))
            exchange.count("upbit", "websocket-frames")
        }
        do {
            while !Task.isCancelled {
                if dropped.take().dropped { return }
                let (codes, fresh, replies, gone, depthRequests) = inbox.state.withLock { s in
                    defer {
                        s.fresh = []
                        s.replies = []
                        s.depth = []
                    }
                    return (s.codes, s.fresh, s.replies, s.gone, s.depth)
                }
                if gone { return }
                let faults = exchange.faults
                if faults.wsDropEverySeconds > 0, opened.duration(to: .now) >= .milliseconds(Int64(faults.wsDropEverySeconds * 1_000)) { return }
                for reply in replies { try await outbound.write(.text(reply)) }
                if faults.wsStall {
                    try await Task.sleep(for: .milliseconds(50))
                    continue
                }
                if var sender = depth {
                    for request in depthRequests {
                        let markets = request.codes.compactMap { ranks[$0]?.0 }
                        if request.remove {
                            sender.remove(Set(request.codes), books: request.books, tapes: !request.books)
                        } else {
                            for text in request.books ? sender.add(books: markets) : sender.add(tapes: markets) { try await write(text) }
                        }
                    }
                    if !depthRequests.isEmpty { dropped.depthCodes = sender.codes }
                    for text in sender.due() { try await write(text) }
                    depth = sender
                }
                let ms = Int64(exchange.now * 1_000)
                for code in fresh {
                    guard let (market, rank) = ranks[code] else { continue }
                    try await write(frame(market, rank, ms, true))
                }
                let live = codes.compactMap { ranks[$0] }.filter { !still($0.0, $0.1) }
                // A price set by hand goes out at once for the markets subscribed.
                let pins = exchange.pins
                if pins.changes != pinChanges {
                    pinChanges = pins.changes
                    for (market, rank) in live where pins.codes.contains(market.code) { try await write(frame(market, rank, ms, false)) }
                }
                if !live.isEmpty, faults.wsRate > 0 {
                    let elapsed = opened.duration(to: .now)
                    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                    let due = max(min(Int(seconds * faults.wsRate - sent), 5_000), 0)
                    for _ in 0..<due {
                        let (market, rank) = live[Int(random.next() % UInt64(live.count))]
                        let garbage = faults.wsGarbageRate > 0 && Double.random(in: 0..<1, using: &random) < faults.wsGarbageRate
                        try await write(garbage ? "not-json{{" : frame(market, rank, ms, false))
                    }
                    sent += Double(due)
                }
                try await Task.sleep(for: SimFaults.streamBeat)
            }
        } catch {}
    }
}
