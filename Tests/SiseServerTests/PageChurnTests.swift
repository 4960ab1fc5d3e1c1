import Foundation
import HummingbirdTesting
import SiseTestSupport
import Testing

/// Pages that come and go give back everything they held: after thousands of `/ws` pages —
/// with and without views, deflated or not, leaving by close frame, by FIN or by reset, before
/// their first message, mid-snapshot or after patches — no page object is alive, not only the
/// client gauge back at zero. (Each page that sent a view kept ≈170 KB once: its outbox, wire
/// handler and deflate stream held each other in a cycle no close broke; and every upgraded
/// connection, view or not, kept its request context and channel, ≈5.6 KB, in a cycle through
/// Hummingbird's WebSocket handler box.)
@Suite struct PageChurnTests {
    /// How a page behaves before it leaves, one per row.
    enum Visit: CaseIterable {
        case bareClose, bareReset, viewThenCloseAtOnce, viewResetMidSnapshot, viewPatchesThenClose,
            favoritesThenFIN, viewResetAtOnce, viewsChangedThenClose

        var sendsView: Bool { self != .bareClose && self != .bareReset }
    }

    static let quotes = [("upbit", "KRW"), ("upbit", "BTC"), ("upbit", "USDT"), ("bithumb", "KRW"), ("bithumb", "BTC"), ("korbit", "KRW")]
    static let sorts = [("value", "none"), ("change", "desc"), ("price", "asc"), ("name", "asc"), ("premium", "desc")]

    static func view(_ index: Int, favorites: Bool = false, q: String = "") -> String {
        let (exchange, quote) = quotes[index % quotes.count]
        let (sort, order) = sorts[(index / 3) % sorts.count]
        let lang = index % 2 == 0 ? "ko" : "en"
        return
            #"{"type":"view","exchange":"\#(exchange)","quote":"\#(quote)","sort":"\#(sort)","order":"\#(order)","q":"\#(q)","favoritesOnly":\#(favorites),"lang":"\#(lang)"}"#
    }

    /// One page's visit; returns whether its upgrade was accepted.
    static func visit(_ index: Int, port: Int) async throws -> Bool {
        let visit = Visit.allCases[index % Visit.allCases.count]
        let page = try await RawWebSocket.open(port: port, deflate: index % 3 != 0)
        guard try await page.upgraded() else {
            await page.reset()
            return false
        }
        let start = page.receivedBytes
        switch visit {
        case .bareClose:
            await page.close()
        case .bareReset:
            await page.reset()
        case .viewThenCloseAtOnce:
            try await page.send(text: view(index))
            await page.close()
        case .viewResetMidSnapshot:
            try await page.send(text: view(index))
            try await page.waitFor(bytes: start + 600)
            await page.reset()
        case .viewPatchesThenClose:
            try await page.send(text: view(index))
            try await page.waitFor(bytes: start + 4_000)
            try await Task.sleep(for: .milliseconds(250))
            await page.close()
        case .favoritesThenFIN:
            try await page.send(text: view(index, favorites: true))
            try await page.waitFor(bytes: start + 100)
            await page.drop()
        case .viewResetAtOnce:
            try await page.send(text: view(index))
            await page.reset()
        case .viewsChangedThenClose:
            try await page.send(text: view(index))
            try await page.send(text: view(index + 1, q: "ㅂ"))
            try await page.waitFor(bytes: start + 300)
            try await page.send(text: view(index + 2))
            await page.close()
        }
        return true
    }

    @Test func thousandsOfPagesThatLeaveLeaveNothingBehind() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let pages = 2_000
            let concurrent = 24
            let accepted = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<concurrent {
                    group.addTask {
                        var accepted = 0
                        for index in stride(from: worker, to: pages, by: concurrent) where try await Self.visit(index, port: port) {
                            accepted += 1
                        }
                        return accepted
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(accepted == pages, "every page was let in (\(accepted) of \(pages))")
            var last = ""
            let empty = try await waitUntil(timeout: .seconds(20)) {
                last = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                let gauges =
                    ["sise_ws_clients", "sise_ws_views", "sise_ws_direct_pages"]
                    + ["client", "wire", "stream", "pacer", "context"].map { #"sise_ws_page_objects{kind="\#($0)"}"# }
                return gauges.allSatisfy { MetricsTests.value(last, $0) == 0 }
            }
            let alive = last.split(separator: "\n").filter {
                $0.hasPrefix("sise_ws_") && !$0.hasPrefix("sise_ws_frames") && !$0.hasPrefix("sise_ws_bytes")
            }
            #expect(empty, "per-page objects still alive after every page left: \(alive.joined(separator: ", "))")
        }
    }
}
