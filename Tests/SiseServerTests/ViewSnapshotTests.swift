import Foundation
import HummingbirdWSClient
import Logging
import SiseCore
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseServer

/// A view's snapshot is made once for the pages that open it between two publications, and never
/// handed to a page after a publication it does not hold.
@Suite struct ViewSnapshotTests {
    static let view = BoardClientView(parameters: ViewParameters(), language: .en, favorites: nil)

    @Test func aSnapshotServesUntilThePublicationOrItsAge() {
        var snapshots = ViewSnapshots()
        let made = Mutex(0)
        func take(at now: Int64, _ view: BoardClientView = Self.view) -> PageMessage {
            snapshots.message(for: view, now: now) {
                made.withLock { $0 += 1 }
                return PageMessage("{\"type\":\"snapshot\",\"n\":\(made.withLock { $0 })}")
            }
        }
        let first = take(at: 1_000)
        #expect(take(at: 1_500) === first, "a second page of the view, no publication between: the same message")
        var other = Self.view
        other.language = .ko
        #expect(take(at: 1_500, other) !== first, "another view has its own")
        snapshots.clear()
        let afterPublication = take(at: 1_600)
        #expect(afterPublication !== first, "a publication came: made again")
        #expect(take(at: 1_600 + ViewSnapshots.maxAge) !== afterPublication, "older than its age: made again (its status's ages moved)")
        let late = take(at: 5_000)
        #expect(take(at: 4_000) !== late, "a clock that went back does not make an entry young")
        #expect(made.withLock { $0 } == 6)
    }

    /// Pages open the same view one after another while the board moves: whatever snapshot each
    /// got (shared or its own), the snapshot and the patches after it add up to the board the
    /// first page holds. A snapshot kept past a publication shows here as rows older than the
    /// first page's that no later patch put right.
    @Test func pagesOpeningOneAfterAnotherHoldTheBoardTheFirstHolds() async throws {
        final class Page: Sendable {
            let texts = Mutex<[String]>([])
            var messages: [[String: Any]] {
                texts.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            }
        }
        let pages = (0..<9).map { _ in Page() }
        try await ServerHarness.run { client in
            let port = try #require(client.port)
            // The board has its rows before the first page opens (on a loaded machine the first
            // page once came before them: its snapshot was empty and nothing had settled to compare).
            try await expectEventually(timeout: .seconds(20), "the board is live with its rows") {
                let rows = json(try await client.execute(uri: "/api/markets", method: .get)) as? [[String: Any]]
                return (rows?.count ?? 0) >= 20
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, page) in pages.enumerated() {
                    group.addTask {
                        // The first alone; then two at once (one shares the other's snapshot),
                        // then one every 150 ms: across publications.
                        let delay = index == 0 ? 0 : 1_000 + (index / 2) * 150
                        try await Task.sleep(for: .milliseconds(delay))
                        try await WebSocketClient.connect(
                            url: "ws://127.0.0.1:\(port)/ws",
                            configuration: .init(maxFrameSize: 1 << 22),
                            logger: Logger(label: "test")
                        ) { inbound, outbound, _ in
                            try await outbound.write(.text(#"{"type":"view","quote":"KRW","sort":"value","order":"none","q":"","lang":"en"}"#))
                            for try await message in inbound.messages(maxSize: 1 << 22) {
                                if case .text(let text) = message { page.texts.withLock { $0.append(text) } }
                            }
                        }
                    }
                }
                group.addTask { try await Task.sleep(for: .seconds(5)) }
                try await group.next()
                group.cancelAll()
            }
        }
        /// Each market's row as the page holds it in the end, and when the patch that last
        /// changed it was published (nil: the snapshot's).
        func board(_ page: Page) throws -> [String: (row: [String: Any], at: Int?)] {
            let messages = page.messages
            let snapshot = try #require(messages.first { $0["type"] as? String == "snapshot" })
            var held: [String: (row: [String: Any], at: Int?)] = [:]
            for row in snapshot["rows"] as? [[String: Any]] ?? [] {
                if let market = row["market"] as? String { held[market] = (row, nil) }
            }
            for patch in messages where patch["type"] as? String == "patch" {
                for row in patch["rows"] as? [[String: Any]] ?? [] {
                    if let market = row["market"] as? String { held[market] = (row, patch["at"] as? Int) }
                }
            }
            return held
        }
        let first = try board(pages[0])
        let firstNewest = first.values.compactMap(\.at).max() ?? 0
        #expect(firstNewest > 0, "the first page saw no patch: nothing moved to compare")
        var compared = 0
        for (index, page) in pages.enumerated().dropFirst() {
            let held = try board(page)
            // Compared up to where both pages' streams had reached when they closed (under load a
            // page may be a publication or two behind the other; a fixed margin was not enough):
            // a row neither saw change after that publication must be the same on both.
            let horizon = min(firstNewest, held.values.compactMap(\.at).max() ?? 0)
            let settled = first.filter { market, row in (row.at ?? 0) <= horizon && (held[market]?.at ?? 0) <= horizon }
            compared += settled.count
            // What a snapshot kept past a publication shows as: a row older than the first page's
            // (one newer came in the page's snapshot after the first page's stream had stopped).
            let differing = settled.filter { market, first in
                guard let mine = held[market]?.row, let ts = mine["ts"] as? Int, let firstTS = first.row["ts"] as? Int else { return true }
                return ts < firstTS || (ts == firstTS && mine["price"] as? Double != first.row["price"] as? Double)
            }
            let markets = differing.keys.sorted()
            #expect(markets.count == 0, "page \(index) holds other rows than the first page: \(markets.prefix(8))")
        }
        #expect(compared >= 20 * (pages.count - 1), "too few rows compared: \(compared)")
    }
}
