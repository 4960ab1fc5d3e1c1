import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The depth stream against the simulator, a row per exchange whose WebSocket carries books:
/// consistent books and a de-duplicated tape, newest first; a burst of changes to what is watched
/// costs at most two requests a second; crossed books dropped and counted by reason; the
/// connection closed when nothing is watched.
@Suite struct DepthFeedTests {
    final class Drops: Sendable {
        let reasons = Mutex<[String: Int]>([:])
        func add(_ reason: String) { reasons.withLock { $0[reason, default: 0] += 1 } }
    }

    static func connections(_ simulator: RunningSimulator, _ exchange: String) async throws -> Int {
        let url = try #require(URL(string: simulator.baseURL.absoluteString + "/_sim/depth?exchange=\(exchange)"))
        let (data, _) = try await URLSession.shared.data(from: url)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["connections"] as? Int ?? -1
    }

    @Test(arguments: ["upbit", "korbit", "bithumb"])
    func booksAndTradesFromTheExchangesStream(_ name: String) async throws {
        try await withSimulator { simulator in
            let exchange = try #require(Exchange(name: name))
            let spec = ExchangeRegistry.spec(exchange)
            let logger = Logger(label: "test")
            let stream = try #require(spec.depthStream(spec.simulated(at: simulator.baseURL), silence: .seconds(5), logger: logger))
            let feed = DepthFeed(exchange: exchange, stream: stream, logger: logger)
            let drops = Drops()
            feed.reportDrops(to: drops.add)
            let running = Task { try? await feed.run() }
            defer { running.cancel() }
            let btc = try #require(MarketID("KRW-BTC"))
            let eth = try #require(MarketID("KRW-ETH"))
            #expect(try await Self.connections(simulator, name) == 0, "nothing watched: no connection")
            feed.watch([btc])
            let filled = try await waitUntil(timeout: .seconds(10)) { feed.book(btc) != nil && (feed.tape(btc)?.value.count ?? 0) >= 2 }
            #expect(filled)
            let book = try #require(feed.book(btc)?.value)
            #expect((try? book.checked()) != nil && book.asks.count >= 10 && book.bids.count >= 10)
            let tape = try #require(feed.tape(btc)?.value)
            #expect(Set(tape.map(\.sequentialID)).count == tape.count, "each trade once")
            #expect(tape.map(\.timestamp) == tape.map(\.timestamp).sorted(by: >), "newest first")

            // Twenty changes in a second: the list goes out at most twice a second, the last one wins.
            // The callers' clock is handed in: 1.6 s of asking takes no real time.
            let before = feed.subscriptionRequests
            let start = ContinuousClock.now
            for i in 0..<20 {
                feed.watch(i % 2 == 0 ? [btc, eth] : [btc], now: start + .milliseconds(50 * i))
            }
            feed.watch([btc, eth], now: start + .milliseconds(1_000))
            feed.watch([btc, eth], now: start + .milliseconds(1_600))
            #expect(try await waitUntil(timeout: .seconds(10)) { feed.book(eth) != nil })
            let sent = feed.subscriptionRequests - before
            #expect(sent >= 1 && Double(sent) <= 1_600 / 500 + 1, "\(sent) requests in 1.6 s")
            #expect(try await Self.connections(simulator, name) == 1, "one connection carries both")

            try await SimAdmin.setFaults(simulator, #"{"crossedBooks":true}"#, exchange: name)
            #expect(try await waitUntil(timeout: .seconds(10)) { drops.reasons.withLock { $0["crossed", default: 0] } >= 3 })
            #expect((try? feed.book(btc)?.value.checked()) != nil, "the book kept is the last consistent one")
            try await SimAdmin.setFaults(simulator, #"{"crossedBooks":false}"#, exchange: name)

            feed.watch([])
            #expect(try await waitUntil(timeout: .seconds(10)) { try await Self.connections(simulator, name) == 0 }, "closed once nothing is watched")
        }
    }
}
