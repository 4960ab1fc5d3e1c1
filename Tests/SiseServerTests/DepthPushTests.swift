import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import SiseCore
import SiseServer
import SiseTestSupport
import Synchronization
import Testing

/// 호가 and 체결 over `/ws`: pages that show a market get its book and tape pushed; one upstream
/// subscription per (exchange, market) whatever the number of pages, released a grace after the
/// last page leaves; a market the exchange does not list is refused.
@Suite struct DepthPushTests {
    final class Inbox: Sendable {
        private let messages = Mutex<[String: [String]]>([:])
        private let leaving = Mutex(false)
        func add(_ page: String, _ text: String) { messages.withLock { $0[page, default: []].append(text) } }
        func of(_ page: String, _ type: String) -> [[String: Any]] {
            messages.withLock { $0[page] ?? [] }
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["type"] as? String == type }
        }
        /// The pages are told to leave.
        var leave: Bool {
            get { leaving.withLock { $0 } }
            set { leaving.withLock { $0 = newValue } }
        }
    }

    /// A row per exchange (and two markets on one), every exchange the registry has.
    static let markets = [("upbit", "KRW-BTC"), ("upbit", "KRW-ETH"), ("korbit", "KRW-BTC"), ("bithumb", "KRW-XRP"), ("coinone", "KRW-BTC")]

    static func subscriptions(_ client: some TestClientProtocol) async throws -> Int? {
        let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
        return text.split(separator: "\n").first { $0.hasPrefix("sise_depth_subscriptions ") }
            .flatMap { Double($0.split(separator: " ")[1]) }.map { Int($0) }
    }

    @Test func pagesOnFiveMarketsCostFiveSubscriptionsReleasedAfterTheGrace() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.depthGrace = .seconds(2) }
        try await ServerHarness.run(configure: configure) { client in
            #expect(Set(Self.markets.map(\.0)) == Set(Exchange.allCases.map(\.rawValue)), "every exchange has a row")
            let port = try #require(client.port)
            let inbox = Inbox()
            let pages = (0..<20).map { ($0, Self.markets[$0 % Self.markets.count]) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, (exchange, market)) in pages {
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
                                if case .text(let text) = message { inbox.add("\(index)", text) }
                                if inbox.leave { break }
                            }
                            try? await outbound.close(.normalClosure, reason: nil)
                        }
                    }
                }
                // Every page has its market's book and tape.
                let served = try await waitUntil(timeout: .seconds(20)) {
                    pages.allSatisfy { !inbox.of("\($0.0)", "orderbook").isEmpty && !inbox.of("\($0.0)", "trades").isEmpty }
                }
                #expect(served)
                #expect(try await Self.subscriptions(client) == Self.markets.count, "one per market, not one per page")
                inbox.leave = true
                try await group.waitForAll()
            }
            for (index, (exchange, market)) in pages {
                let books = inbox.of("\(index)", "orderbook")
                #expect(books.allSatisfy { $0["exchange"] as? String == exchange && $0["market"] as? String == market }, "\(index): only its market")
                let book = try #require(books.last)
                let bestAsk = try #require(((book["asks"] as? [[String: Any]])?.first?["price"] as? String).flatMap { Decimal(string: $0) })
                let bestBid = try #require(((book["bids"] as? [[String: Any]])?.first?["price"] as? String).flatMap { Decimal(string: $0) })
                #expect(bestBid < bestAsk, "a consistent book")
                #expect((book["asks"] as? [Any])?.count ?? 0 <= 10)
                let tape = try #require(inbox.of("\(index)", "trades").last)
                let trades = try #require(tape["trades"] as? [[String: Any]])
                #expect(!trades.isEmpty && trades.allSatisfy { ["buy", "sell"].contains($0["side"] as? String ?? "") })
                // 체결강도 comes decided: the number and its words (null only on a tape without sells).
                let sold = trades.contains { $0["side"] as? String == "sell" }
                let strength = (tape["display"] as? [String: Any])?["strength"]
                #expect(sold ? (strength as? String)?.hasSuffix("%") == true && tape["strength"] is Double : strength is NSNull, "\(tape)")
                #expect((book["display"] as? [String: Any])?["time"] as? String == KSTText.clock(book["at"] as? Int64 ?? 0))
            }
            // Left: kept through the grace (a reload does not start over), then released.
            #expect(try await Self.subscriptions(client) == Self.markets.count)
            let released = try await waitUntil(timeout: .seconds(10)) { try await Self.subscriptions(client) == 0 }
            #expect(released)
            // A page that watched a market keeps nothing alive after it left.
            let freed = try await waitUntil(timeout: .seconds(10)) {
                let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                return MetricsTests.value(text, #"sise_ws_page_objects{kind="client"}"#) == 0
            }
            #expect(freed, "every page that watched a market was freed")
        }
    }

    @Test func aMarketTheExchangeDoesNotListIsRefused() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let inbox = Inbox()
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/ws",
                configuration: .init(maxFrameSize: 1 << 22),
                logger: Logger(label: "test")
            ) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"view","quote":"KRW","lang":"en","window":{"from":0,"to":5}}"#))
                var asked = false
                for try await message in inbound.messages(maxSize: 1 << 22) {
                    if case .text(let text) = message { inbox.add("page", text) }
                    // Once the board is known (its snapshot), the listing is too.
                    if !asked, !inbox.of("page", "snapshot").isEmpty {
                        asked = true
                        try await outbound.write(.text(#"{"type":"depth","exchange":"upbit","market":"KRW-NOPE"}"#))
                    }
                    if !inbox.of("page", "error").isEmpty { break }
                }
                try? await outbound.close(.normalClosure, reason: nil)
            }
            #expect(inbox.of("page", "error").first?["code"] as? String == "not_found")
            #expect(inbox.of("page", "orderbook").isEmpty)
        }
    }
}
