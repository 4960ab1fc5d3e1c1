import Foundation
import SiseSimulator
import SiseTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `sise orderbook` and `sise trades` × every exchange against the simulator: the JSON shapes
/// of the issue (decimal strings, levels best first, ids as strings), a readable ladder, the
/// listing rule's refusals, and a crossed book refused rather than printed.
@Suite struct OrderbookCommandTests {
    @Test(arguments: ["upbit", "korbit", "bithumb"])
    func theBookAndTheTapeOnEachExchange(_ exchange: String) async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let urls = ["--upbit-url", base, "--korbit-url", base, "--bithumb-url", base + "/bithumb", "--exchange", exchange]
            let result = try await SiseBinary.run(["orderbook", "BTC", "--levels", "4", "--json"] + urls)
            #expect(result.status == 0, "\(result.stderr)")
            let book = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            for key in ["exchange", "market", "at", "asks", "bids", "totalAskSize", "totalBidSize"] { #expect(book[key] != nil, "\(key)") }
            let asks = try #require(book["asks"] as? [[String: Any]]).compactMap { ($0["price"] as? String).flatMap(Double.init) }
            let bids = try #require(book["bids"] as? [[String: Any]]).compactMap { ($0["price"] as? String).flatMap(Double.init) }
            #expect(asks.count == 4 && bids.count == 4 && asks == asks.sorted() && bids == bids.sorted(by: >))
            #expect(try #require(bids.first) < (try #require(asks.first)))

            let tape = try await SiseBinary.run(["trades", "BTC", "--count", "5", "--json"] + urls)
            #expect(tape.status == 0, "\(tape.stderr)")
            let trades = try #require(try JSONSerialization.jsonObject(with: Data(tape.stdout.utf8)) as? [[String: Any]])
            #expect(trades.count == 5 && trades.allSatisfy { $0["id"] is String && ["buy", "sell"].contains($0["side"] as? String) })

            let ladder = try await SiseBinary.run(["orderbook", "BTC", "--levels", "2", "--lang", "en"] + urls)
            #expect(ladder.status == 0 && ladder.stdout.contains("Ask size") && ladder.stdout.contains("KRW-BTC"), "\(ladder.stdout)")
            let unknown = try await SiseBinary.run(["trades", "KRW-NOPE", "--lang", "en"] + urls)
            #expect(unknown.status == 2 && unknown.stderr.contains("unknown symbol"), "\(unknown.stderr)")
        }
    }

    /// `sise watch --orderbook` streams the book as it changes, one NDJSON object a change.
    @Test func watchStreamsTheBookAsItChanges() async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            let result = try await SiseBinary.run([
                "watch", "--orderbook", "KRW-BTC", "--json", "--count", "2", "--duration", "20",
                "--upbit-url", base,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(lines.count == 2 && lines.allSatisfy { $0["type"] as? String == "orderbook" && $0["market"] as? String == "KRW-BTC" })
            let first = try #require(lines.first)
            let askText = (first["asks"] as? [[String: Any]])?.first?["price"] as? String
            let bidText = (first["bids"] as? [[String: Any]])?.first?["price"] as? String
            let ask = try #require(askText.flatMap { Double($0) })
            let bid = try #require(bidText.flatMap { Double($0) })
            #expect(bid < ask)
        }
    }

    /// On an exchange whose WebSocket carries books, `watch --orderbook` reads them there: the
    /// exchange sees one depth connection carrying the market while it runs.
    @Test(arguments: ["upbit", "korbit", "bithumb"])
    func watchReadsTheBookFromTheExchangesStream(_ exchange: String) async throws {
        try await withSimulator { simulator in
            let base = simulator.baseURL.absoluteString
            async let run = SiseBinary.run([
                "watch", "--orderbook", "KRW-BTC", "--exchange", exchange, "--json", "--duration", "3",
                "--upbit-url", base, "--korbit-url", base, "--bithumb-url", base + "/bithumb",
            ])
            let depth = try #require(URL(string: base + "/_sim/depth?exchange=\(exchange)"))
            let carried = try await waitUntil(timeout: .seconds(3)) {
                let (data, _) = try await URLSession.shared.data(from: depth)
                let seen = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                return seen?["connections"] as? Int == 1 && (seen?["markets"] as? [String: Int]) == ["KRW-BTC": 1]
            }
            let result = try await run
            #expect(carried, "the exchange saw the book subscribed on its WebSocket")
            #expect(result.status == 0 && result.stdout.split(separator: "\n").count >= 3, "\(result.stderr)")
        }
    }

    @Test func aCrossedBookIsRefusedNotPrinted() async throws {
        try await withSimulator { simulator in
            try await SimAdmin.setFaults(simulator, #"{"crossedBooks":true}"#)
            let result = try await SiseBinary.run(["orderbook", "BTC", "--lang", "en", "--upbit-url", simulator.baseURL.absoluteString])
            #expect(result.status == 3 && result.stderr.contains("inconsistent order book") && result.stdout.isEmpty, "\(result.stderr)")
        }
    }
}
