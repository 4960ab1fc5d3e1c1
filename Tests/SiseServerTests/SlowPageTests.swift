import Foundation
import Hummingbird
import HummingbirdTesting
import SiseServer
import SiseSimulator
import SiseTestSupport
import Testing

/// A page that stops reading (a phone in a tunnel, a frozen tab): its socket fills, the server
/// merges what it would have sent — one pending row per market — and when the socket drains the
/// newest rows go out at once, without waiting for the board's next change.
@Suite struct SlowPageTests {
    @Test func aPageThatStopsReadingGetsTheNewestRowsWhenItsSocketDrains() async throws {
        try await withSimulator { simulator in
            let configuration = ServerConfiguration(port: 0, dataDirectory: ServerHarness.temporaryDirectory())
            // A long silence bound: no status frame is published while the upstream is stalled,
            // so nothing but the drained socket can prompt the write this test waits for.
            let app = try await ServerHarness.build(configuration, upbitURL: simulator.baseURL, silence: .seconds(120))
            try await app.test(.live) { client in
                let port = try #require(client.port)
                _ = try await waitUntil(timeout: .seconds(15)) { try await client.execute(uri: "/api/markets", method: .get).status == .ok }
                // The BTC board: the kimchi premium's updates re-send KRW rows, and any message
                // would carry the merged rows out with it.
                let page = try await RawWebSocket.open(port: port, receiveBuffer: 4_096, keepAll: true)
                #expect(try await page.upgraded())
                try await page.send(text: #"{"type":"view","quote":"BTC","sort":"value","order":"desc","q":"","favoritesOnly":false,"lang":"en"}"#)
                #expect(try await page.waitFor(bytes: 10_000), "the snapshot came")
                try await page.reading(false)
                func metric(_ name: String) async throws -> Double? {
                    let scrape = try await client.execute(uri: "/metrics", method: .get)
                    return MetricsTests.value(String(buffer: scrape.body), name)
                }
                // Its frames went straight to its socket until the kernel took no more; then NIO's
                // queue held the rest (and what follows checks that nothing came out of order), and
                // the batches merged. A merge alone does not tell the socket filled: a loaded loop
                // can find a page's previous batch still waiting its turn.
                #expect(
                    try await expectEventually(timeout: .seconds(30), "the page's socket filled and its batches merged") {
                        let queued = try await metric("sise_ws_queued_writes_total") ?? 0
                        let merged = try await metric("sise_ws_slow_merges_total") ?? 0
                        return queued > 0 && merged > 0
                    }
                )
                #expect(try await metric("sise_ws_direct_pages") == 1)
                // The board stops changing: no frames, and REST polls (the board's fallback while
                // the stream is quiet) hang.
                try await SimAdmin.setFaults(simulator, #"{"wsStall":true,"hang":true}"#)
                // The board as it stays: read until it has not changed for three of its 100 ms
                // batches (the last ones before the stall have landed, in the board and so in the
                // page's outbox).
                var board: [String: Double] = [:]
                var since = ContinuousClock.now
                #expect(
                    try await expectEventually(timeout: .seconds(10), "the board stopped changing") {
                        let now = try await Self.prices(client.execute(uri: "/api/markets?quote=BTC&lang=en", method: .get).body)
                        if now != board { (board, since) = (now, .now) }
                        return !board.isEmpty && since.duration(to: .now) >= .milliseconds(300)
                    }
                )
                let before = page.receivedBytes
                try await page.reading(true)
                var shown: [String: Double] = [:]
                let caughtUp = try await waitUntil(timeout: .seconds(5)) {
                    shown = Self.shownPrices(page.texts)
                    return board.allSatisfy { shown[$0.key] == $0.value }
                }
                // What waited for the page is bounded by its socket's buffers and one merged
                // patch, however long it stalled — not every batch since (3 MB in 20 s before).
                #expect(page.receivedBytes - before < 512 * 1_024, "\(page.receivedBytes - before) bytes were held for the stalled page")
                let behind = board.filter { shown[$0.key] != $0.value }.keys.sorted()
                #expect(caughtUp, "the page still shows older prices for \(behind.prefix(5)) (\(behind.count) of \(board.count))")
                await page.close()
            }
        }
    }

    /// Market → price of a `GET /api/markets` answer.
    static func prices(_ body: ByteBuffer) throws -> [String: Double] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [[String: Any]])
        return Dictionary(
            rows.compactMap { row in (row["market"] as? String).flatMap { m in (row["price"] as? Double).map { (m, $0) } } },
            uniquingKeysWith: { _, last in last }
        )
    }

    /// Market → the price a page shows after its messages (the snapshot, then each patch).
    static func shownPrices(_ texts: [String]) -> [String: Double] {
        var shown: [String: Double] = [:]
        for text in texts {
            guard let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let rows = message["rows"] as? [[String: Any]]
            else { continue }
            for row in rows {
                if let market = row["market"] as? String, let price = row["price"] as? Double { shown[market] = price }
            }
        }
        return shown
    }
}
