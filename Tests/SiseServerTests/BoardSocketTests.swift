import Foundation
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import SiseCore
import SiseTestSupport
import Synchronization
import Testing

/// `/ws` with a real WebSocket client against the live test server.
@Suite struct BoardSocketTests {
    final class Inbox: Sendable {
        private let messages = Mutex<[String]>([])
        func add(_ text: String) { messages.withLock { $0.append(text) } }
        var all: [[String: Any]] {
            messages.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        func of(_ type: String) -> [[String: Any]] { all.filter { $0["type"] as? String == type } }
    }

    @Test func viewSnapshotPatchesAndErrors() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let inbox = Inbox()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        // Snapshots are large frames (every row of the board at once).
                        try await WebSocketClient.connect(
                            url: "ws://127.0.0.1:\(port)/ws",
                            configuration: .init(maxFrameSize: 1 << 22),
                            logger: Logger(label: "test")
                        ) { inbound, outbound, _ in
                            try await outbound.write(
                                .text(#"{"type":"view","quote":"KRW","sort":"price","order":"asc","q":"","favoritesOnly":false,"lang":"en"}"#)
                            )
                            var sentBad = false
                            for try await message in inbound.messages(maxSize: 1 << 22) {
                                if case .text(let text) = message { inbox.add(text) }
                                if !sentBad && inbox.of("patch").count >= 3 {
                                    sentBad = true
                                    try await outbound.write(.text(#"{"type":"view","quote":"EUR"}"#))
                                }
                                if !inbox.of("error").isEmpty { break }
                            }
                            try? await outbound.close(.normalClosure, reason: nil)
                        }
                    } catch {
                        inbox.add("{\"type\":\"failure\",\"error\":\"\(error)\"}")
                    }
                }
                group.addTask { try await Task.sleep(for: .seconds(15)) }
                try await group.next()
                group.cancelAll()
            }
            #expect(inbox.of("failure").isEmpty, "\(inbox.of("failure"))")
            let snapshot = try #require(inbox.of("snapshot").first)
            #expect((snapshot["view"] as? [String: Any])?["sort"] as? String == "price")
            // The sort cycle comes with the view: price asc → tapped again, the default order;
            // another column starts descending, the name column ascending (가나다 first).
            let next = try #require((snapshot["view"] as? [String: Any])?["next"] as? [String: [String: String]])
            #expect(next["price"] == ["sort": "value", "order": "none"])
            #expect(next["change"] == ["sort": "change", "order": "desc"])
            #expect(next["name"] == ["sort": "name", "order": "asc"])
            let rows = try #require(snapshot["rows"] as? [[String: Any]])
            let order = try #require(snapshot["order"] as? [String])
            #expect(rows.count == order.count && rows.count >= 240)
            let prices = order.compactMap { code in rows.first { $0["market"] as? String == code }?["price"] as? Double }
            #expect(prices == prices.sorted(), "the server decided the order")
            #expect(rows.allSatisfy { ($0["display"] as? [String: Any])?["tradeValue"] as? String != nil })
            #expect(((snapshot["status"] as? [String: Any])?["exchanges"] as? [String: Any])?["upbit"] != nil)
            let patches = inbox.of("patch")
            #expect(patches.count >= 3)
            #expect(patches.allSatisfy { ($0["rows"] as? [[String: Any]])?.allSatisfy { $0["ts"] is Int } == true })
            // Each says when it was published: during this test, by the server's wall clock.
            let now = WallClock.system.now
            #expect(patches.allSatisfy { ($0["at"] as? Int).map { Int64($0) <= now && Int64($0) > now - 60_000 } == true })
            let error = try #require(inbox.of("error").first)
            #expect(error["code"] as? String == "bad_parameter")
        }
    }

    /// A page keeps the rows it was sent and re-orders them by each patch's order: after every
    /// patch of seconds of live data, its order must be its rows sorted by change (rates cross
    /// each other often; the server places changed rows without sorting the board again, so
    /// this is what holds it to a full sort).
    @Test func patchedOrdersStaySortedByTheRowsSent() async throws {
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            let inbox = Inbox()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await WebSocketClient.connect(
                        url: "ws://127.0.0.1:\(port)/ws",
                        configuration: .init(maxFrameSize: 1 << 22),
                        logger: Logger(label: "test")
                    ) { inbound, outbound, _ in
                        try await outbound.write(.text(#"{"type":"view","quote":"KRW","sort":"change","order":"asc","q":"","lang":"en"}"#))
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            if case .text(let text) = message { inbox.add(text) }
                        }
                    }
                }
                group.addTask { try await Task.sleep(for: .seconds(6)) }
                try await group.next()
                group.cancelAll()
            }
            let snapshot = try #require(inbox.of("snapshot").first)
            var rates: [String: Double] = [:]
            func take(_ rows: Any?) {
                for row in rows as? [[String: Any]] ?? [] {
                    if let market = row["market"] as? String, let rate = row["changeRate"] as? Double { rates[market] = rate }
                }
            }
            take(snapshot["rows"])
            var order = try #require(snapshot["order"] as? [String])
            var orders = 0
            var unsorted = 0
            var mismatched = 0
            for patch in inbox.of("patch") {
                take(patch["rows"])
                if let next = patch["order"] as? [String] {
                    order = next
                    orders += 1
                }
                let shown = order.map { rates[$0] ?? .nan }
                if shown != shown.sorted() { unsorted += 1 }
                if Set(order) != Set(rates.keys) { mismatched += 1 }
            }
            #expect(unsorted == 0, "\(unsorted) patches left the page's order other than its rows by change")
            #expect(mismatched == 0, "\(mismatched) patches left the order naming other markets than the rows")
            #expect(inbox.of("patch").count >= 20)
            #expect(orders >= 1, "the order never moved: nothing was tested")
        }
    }

    /// A page still open when the server stops is closed by the server (a close frame the
    /// browser answers), and the shutdown does not wait on it.
    @Test func shuttingDownClosesAnOpenPage() async throws {
        let inbox = Inbox()
        final class Page: Sendable { let reading = Mutex<Task<WebSocketCloseFrame?, any Error>?>(nil) }
        let page = Page()
        try await withThrowingTaskGroup(of: Void.self) { race in
            race.addTask {
                try await ServerHarness.run { client in
                    let port = try #require(client.port)
                    let reading = Task {
                        try await WebSocketClient.connect(
                            url: "ws://127.0.0.1:\(port)/ws",
                            configuration: .init(maxFrameSize: 1 << 22),
                            logger: Logger(label: "test")
                        ) { inbound, outbound, _ in
                            try await outbound.write(.text(#"{"type":"view","quote":"KRW","sort":"value","order":"desc","q":"","lang":"en"}"#))
                            for try await message in inbound.messages(maxSize: 1 << 22) {
                                if case .text(let text) = message { inbox.add(text) }
                            }
                        }
                    }
                    page.reading.withLock { $0 = reading }
                    #expect(try await waitUntil(timeout: .seconds(10)) { !inbox.of("snapshot").isEmpty })
                }
            }
            race.addTask {
                try await Task.sleep(for: .seconds(30))
                throw CancellationError()
            }
            try await race.next()
            race.cancelAll()
        }
        let reading = try #require(page.reading.withLock { $0 })
        let close = try await reading.value
        #expect(close?.closeCode == .normalClosure, "the page was told the server closed it: \(String(describing: close))")
    }

    @Test func crossSiteSocketsAreRefused() async throws {
        try await ServerHarness.run { client in
            var headers: HTTPFields = [:]
            headers[.origin] = "https://evil.example"
            headers[.connection] = "Upgrade"
            headers[.upgrade] = "websocket"
            headers[.secWebSocketVersion] = "13"
            headers[.secWebSocketKey] = "dGhlIHNhbXBsZSBub25jZQ=="
            let response = try await client.execute(uri: "/ws", method: .get, headers: headers)
            #expect(response.status != .switchingProtocols)
        }
    }
}
