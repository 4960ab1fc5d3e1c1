import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import SiseCore
import SiseServer
import SiseTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// 호가 and 체결 from the exchanges' own WebSockets: one depth connection per exchange carries
/// every watched market once, whatever the number of pages, and changes what it carries without
/// a reconnect of the board's ticker stream; books keep coming while REST fails; a stalled depth
/// feed turns the book `delayed` (REST) and then `stale`; a crossed book is dropped and counted.
@Suite(.serialized) struct DepthStreamTests {
    /// A page on `/ws` that asks for one market's book and can switch to another.
    final class Page: Sendable {
        let inbox = DepthPushTests.Inbox()
        let name: String
        private let next = Mutex<[String]>([])
        init(_ name: String) { self.name = name }
        func ask(_ text: String) { next.withLock { $0.append(text) } }
        func take() -> [String] {
            next.withLock { queued in
                let taken = queued
                queued = []
                return taken
            }
        }
        var books: [[String: Any]] { inbox.of(name, "orderbook") }
    }

    static func open(_ pages: [Page], port: Int, exchange: String, markets: [String], group: inout ThrowingTaskGroup<Void, any Error>) {
        for (page, market) in zip(pages, markets) {
            group.addTask {
                try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/ws",
                    configuration: .init(maxFrameSize: 1 << 22),
                    logger: Logger(label: "test")
                ) { inbound, outbound, _ in
                    try await outbound.write(
                        .text(#"{"type":"view","exchange":"\#(exchange)","quote":"KRW","lang":"en","window":{"from":0,"to":5}}"#)
                    )
                    try await outbound.write(.text(#"{"type":"depth","exchange":"\#(exchange)","market":"\#(market)"}"#))
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        if case .text(let text) = message { page.inbox.add(page.name, text) }
                        for text in page.take() { try await outbound.write(.text(text)) }
                        if page.inbox.leave { break }
                    }
                    try? await outbound.close(.normalClosure, reason: nil)
                }
            }
        }
    }

    static func simulator(_ client: some TestClientProtocol) async throws -> URL {
        let status =
            try JSONSerialization.jsonObject(with: Data(buffer: try await client.execute(uri: "/api/status", method: .get).body)) as? [String: Any]
        return try #require((status?["simulator"] as? String).flatMap { URL(string: $0) })
    }

    static func faults(_ simulator: URL, _ exchange: String, _ body: String) async throws {
        var request = URLRequest(
            url: simulator.appendingPathComponent("_sim/faults").appending(queryItems: [.init(name: "exchange", value: exchange)])
        )
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let (_, answer) = try await URLSession.shared.data(for: request)
        #expect((answer as? HTTPURLResponse)?.statusCode == 200)
    }

    /// `{"connections":N,"markets":{code: connections}}` as the simulator (the exchange) sees it.
    static func upstream(_ simulator: URL, _ exchange: String) async throws -> (connections: Int, markets: [String: Int]) {
        let url = simulator.appendingPathComponent("_sim/depth").appending(queryItems: [.init(name: "exchange", value: exchange)])
        let (data, _) = try await URLSession.shared.data(from: url)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (object?["connections"] as? Int ?? -1, object?["markets"] as? [String: Int] ?? [:])
    }

    static func metric(_ client: some TestClientProtocol, _ series: String) async throws -> Double? {
        MetricsTests.value(String(buffer: try await client.execute(uri: "/metrics", method: .get).body), series)
    }

    static func consistent(_ book: [String: Any]) -> Bool {
        func best(_ side: String) -> Decimal? {
            ((book[side] as? [[String: Any]])?.first?["price"] as? String).flatMap { Decimal(string: $0) }
        }
        guard let ask = best("asks"), let bid = best("bids") else { return false }
        return bid < ask
    }

    /// Every exchange whose WebSocket carries books here (Coinone's are read over REST: DepthPushTests).
    @Test(arguments: ["upbit", "korbit", "bithumb"])
    func oneConnectionCarriesEveryWatchedMarketOnce(_ exchange: String) async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.depthGrace = .seconds(1) }
        try await ServerHarness.run(configure: configure) { client in
            let port = try #require(client.port)
            let simulator = try await Self.simulator(client)
            let pages = (0..<4).map { Page("\($0)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                Self.open(pages, port: port, exchange: exchange, markets: ["KRW-BTC", "KRW-ETH", "KRW-BTC", "KRW-ETH"], group: &group)
                let live = try await waitUntil(timeout: .seconds(20)) {
                    pages.allSatisfy { $0.books.last?["state"] as? String == "live" && !$0.inbox.of($0.name, "trades").isEmpty }
                }
                #expect(live, "every page has a live book and a tape")
                // A page's first book may come over REST while the stream's list is re-sent (at most
                // twice a second): the exchange soon sees both markets, each once, on one connection.
                var seen = try await Self.upstream(simulator, exchange)
                let carried = try await waitUntil(timeout: .seconds(5)) {
                    seen = try await Self.upstream(simulator, exchange)
                    return seen.connections == 1 && seen.markets == ["KRW-BTC": 1, "KRW-ETH": 1]
                }
                #expect(carried, "\(seen)")

                // REST refused from now on: the books keep coming, live, over the stream.
                try await Self.faults(simulator, exchange, #"{"errorRate":1}"#)
                let before = pages[0].books.count
                let more = try await waitUntil(timeout: .seconds(10)) { pages[0].books.count >= before + 3 }
                let after = pages[0].books.dropFirst(before)
                #expect(
                    more && after.allSatisfy { $0["state"] as? String == "live" && Self.consistent($0) },
                    "\(after.map { ($0["state"] as? String ?? "?", Self.consistent($0)) })"
                )
                try await Self.faults(simulator, exchange, #"{"errorRate":0}"#)

                // Two pages move to another market: the same connection carries it, and drops ETH after the grace.
                for page in [pages[1], pages[3]] { page.ask(#"{"type":"depth","exchange":"\#(exchange)","market":"KRW-XRP"}"#) }
                let moved = try await waitUntil(timeout: .seconds(10)) {
                    seen = try await Self.upstream(simulator, exchange)
                    return seen.markets == ["KRW-BTC": 1, "KRW-XRP": 1]
                }
                #expect(moved && seen.connections == 1, "\(seen)")
                let xrp = try await waitUntil(timeout: .seconds(10)) { pages[1].books.last?["market"] as? String == "KRW-XRP" }
                #expect(xrp)
                // The board's ticker stream was never reconnected by any of it.
                #expect(try await Self.metric(client, #"sise_upstream_disconnects_total{exchange="\#(exchange)"}"#) ?? 0 == 0)
                for page in pages { page.inbox.leave = true }
                try await group.waitForAll()
            }
            // Nobody watches: the depth connection closes after the grace.
            let closed = try await waitUntil(timeout: .seconds(10)) { try await Self.upstream(simulator, exchange).connections == 0 }
            #expect(closed)
        }
    }

    @Test func aStalledBookIsDelayedThenStaleAndLiveAgain() async throws {
        try await ServerHarness.run(silence: .seconds(1)) { client in
            let port = try #require(client.port)
            let simulator = try await Self.simulator(client)
            let page = Page("stall")
            try await withThrowingTaskGroup(of: Void.self) { group in
                Self.open([page], port: port, exchange: "upbit", markets: ["KRW-BTC"], group: &group)
                func reaches(_ state: String) async throws -> Bool {
                    try await waitUntil(timeout: .seconds(15)) { page.books.last?["state"] as? String == state }
                }
                #expect(try await reaches("live"))
                try await Self.faults(simulator, "upbit", #"{"bookStall":true}"#)
                #expect(try await reaches("delayed"), "a silent depth feed: the book is read over REST, and says so")
                try await Self.faults(simulator, "upbit", #"{"errorRate":1}"#)
                #expect(try await reaches("stale"), "nothing fresh to be had: the last book, marked stale")
                try await Self.faults(simulator, "upbit", #"{"errorRate":0,"bookStall":false}"#)
                #expect(try await reaches("live"))
                // A dropped depth connection comes back by itself.
                try await Self.faults(simulator, "upbit", #"{"bookDropNow":true}"#)
                let count = page.books.count
                let back = try await waitUntil(timeout: .seconds(15)) {
                    page.books.count > count + 3 && page.books.last?["state"] as? String == "live"
                }
                #expect(back)
                #expect(page.books.allSatisfy(Self.consistent))
                page.inbox.leave = true
                try await group.waitForAll()
            }
        }
    }

    /// The stream has not brought its first book yet and one REST read fails: the book read a
    /// moment ago is not stale. It turns stale only when it is as old as the silence bound.
    @Test func aBookReadAMomentAgoIsNotStaleWhenOneReadFails() async throws {
        try await ServerHarness.run(silence: .seconds(3)) { client in
            let port = try #require(client.port)
            let simulator = try await Self.simulator(client)
            try await Self.faults(simulator, "upbit", #"{"bookStall":true}"#)
            let page = Page("fresh")
            try await withThrowingTaskGroup(of: Void.self) { group in
                Self.open([page], port: port, exchange: "upbit", markets: ["KRW-BTC"], group: &group)
                #expect(try await waitUntil(timeout: .seconds(10)) { page.books.last?["state"] as? String == "live" })
                try await Self.faults(simulator, "upbit", #"{"errorRate":1}"#)
                let before = page.books.count
                try await Task.sleep(for: .milliseconds(1_500))
                let states = page.books.dropFirst(before).compactMap { $0["state"] as? String }
                #expect(!states.contains("stale"), "\(states)")
                let stale = try await waitUntil(timeout: .seconds(10)) { page.books.last?["state"] as? String == "stale" }
                #expect(stale, "past the silence bound, the last book is stale")
                page.inbox.leave = true
                try await group.waitForAll()
            }
        }
    }

    @Test(arguments: ["upbit", "korbit"])
    func aCrossedStreamBookIsDroppedCountedAndNeverShown(_ exchange: String) async throws {
        try await ServerHarness.run(silence: .seconds(1)) { client in
            let port = try #require(client.port)
            let simulator = try await Self.simulator(client)
            let page = Page("crossed")
            try await withThrowingTaskGroup(of: Void.self) { group in
                Self.open([page], port: port, exchange: exchange, markets: ["KRW-BTC"], group: &group)
                #expect(try await waitUntil(timeout: .seconds(15)) { page.books.last?["state"] as? String == "live" })
                try await Self.faults(simulator, exchange, #"{"crossedBooks":true}"#)
                let series = #"sise_orderbook_dropped_total{exchange="\#(exchange)",reason="crossed"}"#
                let counted = try await waitUntil(timeout: .seconds(10)) { try await Self.metric(client, series) ?? 0 >= 5 }
                #expect(counted)
                #expect(try await waitUntil(timeout: .seconds(10)) { page.books.last?["state"] as? String == "stale" })
                #expect(page.books.allSatisfy(Self.consistent), "no crossed book ever reached the page")
                page.inbox.leave = true
                try await group.waitForAll()
            }
        }
    }
}
