import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SiseCore
import SiseServer
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// 호가 and 체결 over the API × every exchange, against the demo simulator: a consistent book
/// (best bid below best ask, both sides best first, decimal strings), the tape newest first with
/// each trade once, the one listing rule's refusals, and a crossed book never answered but counted.
@Suite struct OrderbookAPITests {
    static func decimal(_ value: Any?) -> Double? { (value as? String).flatMap(Double.init) }

    @Test(arguments: ["upbit", "korbit", "bithumb"])
    func aConsistentBookAndTapeOnEachExchange(_ exchange: String) async throws {
        try await ServerHarness.run { client in
            _ = try await waitUntil(timeout: .seconds(15)) {
                try await client.execute(uri: "/api/markets?exchange=\(exchange)", method: .get).status == .ok
            }
            let answer = try await client.execute(uri: "/api/orderbook/KRW-BTC?exchange=\(exchange)&levels=5", method: .get)
            #expect(answer.status == .ok)
            let book = try #require(json(answer) as? [String: Any])
            #expect(book["exchange"] as? String == exchange && book["market"] as? String == "KRW-BTC")
            let asks = try #require(book["asks"] as? [[String: Any]]).compactMap { Self.decimal($0["price"]) }
            let bids = try #require(book["bids"] as? [[String: Any]]).compactMap { Self.decimal($0["price"]) }
            #expect(asks.count == 5 && bids.count == 5, "levels=5 on each side")
            #expect(asks == asks.sorted() && bids == bids.sorted(by: >), "best first")
            #expect(try #require(bids.first) < (try #require(asks.first)), "the best bid is below the best ask")
            #expect(Self.decimal(book["totalAskSize"]) != nil && (book["at"] as? Int64 ?? 0) > 0)

            let tape = try #require(
                json(try await client.execute(uri: "/api/trades/KRW-BTC?exchange=\(exchange)&count=20", method: .get))
                    as? [[String: Any]]
            )
            #expect(tape.count == 20)
            let ids = tape.compactMap { $0["id"] as? String }
            #expect(Set(ids).count == 20, "each trade once")
            let times = tape.compactMap { $0["at"] as? Int64 }
            #expect(times == times.sorted(by: >), "newest first")
            #expect(tape.allSatisfy { ["buy", "sell"].contains($0["side"] as? String) && Self.decimal($0["price"]) != nil })

            // The page's tape: the same trades with 체결강도 worked out over them.
            let page = try #require(
                json(try await client.execute(uri: "/api/tape/KRW-BTC?exchange=\(exchange)&count=20", method: .get)) as? [String: Any]
            )
            let trades = try #require(page["trades"] as? [[String: Any]])
            #expect(trades.count == 20 && page["exchange"] as? String == exchange && page["market"] as? String == "KRW-BTC")
            let volume = { (side: String) in
                trades.filter { $0["side"] as? String == side }.compactMap { Self.decimal($0["size"]) }.reduce(0, +)
            }
            let display = try #require(page["display"] as? [String: Any])
            if volume("sell") > 0 {
                let expected = volume("buy") / volume("sell") * 100
                #expect(abs((page["strength"] as? Double ?? -1) - expected) < 0.01, "\(page["strength"] ?? "none") ≠ \(expected)")
                #expect(display["strength"] as? String == TradeTape.strengthText(page["strength"] as? Double ?? 0))
            } else {
                #expect(page["strength"] is NSNull && display["strength"] is NSNull)
            }
        }
    }

    @Test func refusalsFollowTheListingRule() async throws {
        try await ServerHarness.run { client in
            _ = try await waitUntil(timeout: .seconds(15)) {
                try await client.execute(uri: "/api/markets?exchange=korbit", method: .get).status == .ok
            }
            for (uri, status) in [
                ("/api/orderbook/KRW-NOPE", HTTPResponse.Status.notFound), ("/api/trades/KRW-NOPE", .notFound),
                ("/api/orderbook/BTC-ETH?exchange=korbit", .badRequest), ("/api/orderbook/KRW-BTC?levels=99", .badRequest),
                ("/api/trades/KRW-BTC?count=0", .badRequest),
                ("/api/tape/KRW-NOPE", .notFound), ("/api/tape/KRW-BTC?count=51", .badRequest), ("/api/orderbook/%3Cb%3E", .badRequest),
            ] {
                #expect(try await client.execute(uri: uri, method: .get).status == status, "\(uri)")
            }
        }
    }

    /// A broken upstream's crossed book is dropped and counted, never answered as if it were a book.
    @Test func aCrossedBookIsNeverShown() async throws {
        try await ServerHarness.run { client in
            let status = try #require(json(try await client.execute(uri: "/api/status", method: .get)) as? [String: Any])
            let simulator = try #require((status["simulator"] as? String).flatMap(URL.init(string:)))
            var request = URLRequest(url: simulator.appendingPathComponent("_sim/faults"))
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"crossedBooks":true}"#.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            _ = try await URLSession.shared.data(for: request)
            let answer = try await client.execute(uri: "/api/orderbook/KRW-BTC", method: .get)
            #expect(answer.status == .serviceUnavailable && errorCode(answer) == "upstream")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(
                metrics.contains("sise_orderbook_dropped_total{exchange=\"upbit\",reason=\"crossed\"} 1"),
                "\(metrics.split(separator: "\n").filter { $0.contains("orderbook") })"
            )
        }
    }
}
