import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import SiseServer

/// Pages that fall behind their view: the patches they missed are sent as one, with the newest
/// of every row and the newest order, and pages that missed the same patches share that one
/// message (made once) — at 10,000 pages, when a batch outlasts the 100 ms between two, that is
/// most pages.
@Suite struct SharedPatchTests {
    static func client() -> BoardClient {
        BoardClient(deviceID: "d", view: nil, page: PageDeliveryTests.page(EmbeddedChannel(), ServerMetrics()))
    }

    /// A view's patch as the hub makes it: rows (market, value), maybe an order, and when it was
    /// published.
    static func patch(
        _ rows: [(Int, Int)],
        order: [String]? = nil,
        at: Int64 = 1_000
    ) -> (rows: [(String, String)], order: BoardSocketMessage.Order?, at: Int64, message: PageMessage) {
        let pieces = rows.map { PageDeliveryTests.row($0.0, $0.1) }
        let order = order.map(BoardSocketMessage.Order.init)
        return (pieces, order, at, PageMessage(BoardSocketMessage.patch(rows: pieces.map(\.1), order: order, at: at)))
    }

    /// The rows of a sent patch, by market, its order and its `at`.
    static func read(_ message: PageMessage) throws -> (rows: [String: Int], order: [String]?, at: Int64?) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(String(buffer: message.text).utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        var values: [String: Int] = [:]
        for row in rows { values[try #require(row["market"] as? String)] = try #require(row["v"] as? Int) }
        return (values, object["order"] as? [String], (object["at"] as? NSNumber)?.int64Value)
    }

    /// The n-th patch of a case is published at `1_000 + 100 n` ms; a page's own post between
    /// the n-th and the one before it at `950 + 100 n`.
    static func published(_ index: Int) -> Int64 { 1_000 + 100 * Int64(index) }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// The view's patches, oldest first: (market, value) rows, and an order or none.
        let patches: [([(Int, Int)], [String]?)]
        /// Posts of the page's own between them (index → rows), as a page with a window gets.
        var own: [Int: [(Int, Int)]] = [:]
        let rows: [String: Int]
        let order: [String]?
        /// The sent patch's `at`: the oldest change it carries (the first patch's, unless said).
        var at: Int64 = SharedPatchTests.published(0)
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "one patch: sent as it is", patches: [([(1, 1)], nil)], rows: ["KRW-C1": 1], order: nil),
        Case(
            name: "three missed: the newest of each row, the newest order",
            patches: [([(1, 1), (2, 1)], ["a"]), ([(1, 2)], nil), ([(3, 3)], ["b"])],
            rows: ["KRW-C1": 2, "KRW-C2": 1, "KRW-C3": 3],
            order: ["b"]
        ),
        Case(
            name: "an older order is kept when the newer patches bring none",
            patches: [([(1, 1)], ["a"]), ([(1, 5)], nil)],
            rows: ["KRW-C1": 5],
            order: ["a"]
        ),
        Case(
            name: "more than the page holds unmerged: collapsed as they come, nothing lost",
            patches: (0..<(SharedPatch.maxLater + 4)).map { ([($0 % 3, $0)], $0 == 2 ? ["x"] : nil) },
            rows: ["KRW-C0": SharedPatch.maxLater + 1, "KRW-C1": SharedPatch.maxLater + 2, "KRW-C2": SharedPatch.maxLater + 3],
            order: ["x"]
        ),
        Case(
            name: "far behind (three collapses): the newest of each row, the newest order",
            patches: (0..<(3 * SharedPatch.maxLater + 5)).map { ([($0 % 5, $0)], $0 % 7 == 0 ? ["o\($0)"] : nil) },
            rows: Dictionary(
                uniqueKeysWithValues: (0..<5).map { market in
                    ("KRW-C\(market)", (0..<(3 * SharedPatch.maxLater + 5)).last { $0 % 5 == market } ?? -1)
                }
            ),
            order: ["o\((0..<(3 * SharedPatch.maxLater + 5)).last { $0 % 7 == 0 } ?? -1)"]
        ),
        Case(
            name: "a post of the page's own between them",
            patches: [([(1, 1)], nil), ([(2, 2)], nil), ([(1, 3)], nil)],
            own: [1: [(4, 4)]],
            rows: ["KRW-C1": 3, "KRW-C2": 2, "KRW-C4": 4],
            order: nil
        ),
        Case(
            name: "the page's own post first: as old as it",
            patches: [([(1, 1)], nil), ([(2, 2)], nil)],
            own: [0: [(4, 4)]],
            rows: ["KRW-C1": 1, "KRW-C2": 2, "KRW-C4": 4],
            order: nil,
            at: 950
        ),
    ]

    @Test(arguments: cases) func aPageBehindIsSentTheMissedPatchesAsOne(_ example: Case) throws {
        let client = Self.client()
        for (index, (rows, order)) in example.patches.enumerated() {
            if let own = example.own[index] {
                client.post(rows: own.map { PageDeliveryTests.row($0.0, $0.1) }, order: nil, status: nil, at: Self.published(index) - 50, now: false)
            }
            let patch = Self.patch(rows, order: order, at: Self.published(index))
            client.post(rows: patch.rows, order: patch.order, status: nil, shared: patch.message, at: patch.at, now: false)
        }
        let sent = client.drain()
        try #require(sent.count == 1)
        let (rows, order, at) = try Self.read(sent[0])
        #expect(rows == example.rows)
        #expect(order == example.order)
        #expect(at == example.at)
        #expect(client.drain().isEmpty)
    }

    /// A page the server had not come round to (its socket took every write) is sent the patches
    /// it missed as they were: the very messages the view's other pages got, each with its own
    /// time, nothing merged for it.
    @Test func aPageTheServerWasLateForGetsThePatchesAsTheyWere() throws {
        let patches = [Self.patch([(1, 1)], at: 1_000), Self.patch([(1, 2), (2, 2)], order: ["z"], at: 1_100), Self.patch([(3, 3)], at: 1_200)]
        let client = Self.client()
        for patch in patches {
            client.post(rows: patch.rows, order: patch.order, status: nil, shared: patch.message, at: patch.at, now: false)
        }
        let sent = client.drain(merging: false)
        try #require(sent.count == 3)
        #expect(zip(sent, patches).allSatisfy { $0 === $1.message })
        #expect(try sent.map { try Self.read($0).at } == [1_000, 1_100, 1_200])
        #expect(client.drain(merging: false).isEmpty)
    }

    @Test func pagesThatMissedTheSamePatchesShareOneMessage() throws {
        let patches = [Self.patch([(1, 1)], at: 1_000), Self.patch([(1, 2), (2, 2)], order: ["z"], at: 1_100), Self.patch([(3, 3)], at: 1_200)]
        let (a, b, c) = (Self.client(), Self.client(), Self.client())
        for patch in patches {
            for client in [a, b] { client.post(rows: patch.rows, order: patch.order, status: nil, shared: patch.message, at: patch.at, now: false) }
        }
        // `c` was written after the first patch: it missed two, not three.
        c.post(rows: patches[0].rows, order: nil, status: nil, shared: patches[0].message, at: patches[0].at, now: false)
        #expect(c.drain().first === patches[0].message)
        for patch in patches.dropFirst() {
            c.post(rows: patch.rows, order: patch.order, status: nil, shared: patch.message, at: patch.at, now: false)
        }
        let (fromA, fromB, fromC) = (try #require(a.drain().first), try #require(b.drain().first), try #require(c.drain().first))
        #expect(fromA === fromB)
        #expect(fromC !== fromA)
        #expect(try Self.read(fromA).rows == ["KRW-C1": 2, "KRW-C2": 2, "KRW-C3": 3])
        #expect(try Self.read(fromC).rows == ["KRW-C1": 2, "KRW-C2": 2, "KRW-C3": 3])
        // Each as old as the first patch it missed.
        #expect(try Self.read(fromA).at == 1_000)
        #expect(try Self.read(fromC).at == 1_100)
    }

    /// Pages far behind (a client that stopped reading for seconds) stay on merges their view's
    /// pages share: the one message, made once — not a patch of their own each, encoded per page
    /// (at 19,800 pages that made a message cost 33.7 µs of the server instead of 8).
    @Test func pagesFarBehindShareTheirMergeToo() throws {
        let patches = (0..<(2 * SharedPatch.maxLater + 3)).map { Self.patch([($0 % 4, $0)], at: Self.published($0)) }
        let pages = (0..<3).map { _ in Self.client() }
        for patch in patches {
            for page in pages { page.post(rows: patch.rows, order: patch.order, status: nil, shared: patch.message, at: patch.at, now: false) }
        }
        let sent = try pages.map { try #require($0.drain().first) }
        #expect(sent[0] === sent[1] && sent[1] === sent[2])
        let (rows, _, at) = try Self.read(sent[0])
        #expect(rows == ["KRW-C0": 16, "KRW-C1": 17, "KRW-C2": 18, "KRW-C3": 15])
        #expect(at == Self.published(0))
    }
}
