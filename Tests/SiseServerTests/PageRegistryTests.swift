import NIOEmbedded
import SiseCore
import Testing

@testable import SiseServer

/// The hub's register of pages: grouped by view as views change, and the bound on distinct views
/// counted as it goes.
@Suite struct PageRegistryTests {
    static func page(on loop: EmbeddedEventLoop = EmbeddedEventLoop()) -> BoardClient {
        let metrics = ServerMetrics()
        return BoardClient(deviceID: "d", view: nil, page: PageDeliveryTests.page(EmbeddedChannel(loop: loop), metrics))
    }

    static func view(_ q: String, favorites: Set<MarketID>? = nil) throws -> BoardClientView {
        BoardClientView(
            parameters: try ViewParameters(quote: "KRW", sort: "value", order: "none", q: q, favorites: nil, exchange: nil),
            language: .ko,
            favorites: favorites
        )
    }

    @Test func pagesAreGroupedByTheViewTheyShowNow() throws {
        var registry = PageRegistry()
        let (a, b, c) = (Self.page(), Self.page(), Self.page())
        for page in [a, b, c] { registry.add(page) }
        registry.show(try Self.view("btc"), for: a)
        registry.show(try Self.view("btc"), for: b)
        registry.show(try Self.view("eth"), for: c)
        #expect(registry.groups[try Self.view("btc")]?.count == 2)
        #expect(registry.viewCount == 2)
        // A page moves: it leaves its old group, and an emptied group is gone.
        registry.show(try Self.view("btc"), for: c)
        #expect(registry.groups[try Self.view("btc")]?.count == 3)
        #expect(registry.groups[try Self.view("eth")] == nil)
        #expect(registry.viewCount == 1)
        _ = registry.remove(a)
        _ = registry.remove(b)
        #expect(registry.groups[try Self.view("btc")]?.count == 1 && registry.count == 1)
        // A page that has gone is not brought back by a late view change.
        _ = registry.remove(c)
        registry.show(try Self.view("xrp"), for: c)
        #expect(registry.groups.isEmpty && registry.viewCount == 0 && registry.count == 0)
    }

    @Test func theBoundCountsDistinctViewsWithoutTheirStars() throws {
        var registry = PageRegistry()
        let pages = (0..<4).map { _ in Self.page() }
        for page in pages { registry.add(page) }
        let (btc, eth) = (try #require(MarketID("KRW-BTC")), try #require(MarketID("KRW-ETH")))
        registry.show(try Self.view("a", favorites: [btc]), for: pages[0])
        registry.show(try Self.view("a", favorites: [eth]), for: pages[1])
        registry.show(try Self.view("b"), for: pages[2])
        // Two devices' starred lists are one view for the bound (two groups to compute).
        #expect(registry.viewCount == 2 && registry.groups.count == 3)
        // Full at two: a third view is refused, a shown one admitted.
        #expect(!registry.admits(try Self.view("c"), for: pages[3], limit: 2))
        #expect(registry.admits(try Self.view("b"), for: pages[3], limit: 2))
        // The only page of a view may swap it for a new one: its old one goes.
        #expect(registry.admits(try Self.view("c"), for: pages[2], limit: 2))
        #expect(!registry.admits(try Self.view("c"), for: pages[0], limit: 2))
    }

    /// A view's pages, one list per event loop: pages leave from anywhere in a list (the last one
    /// takes the place), and every page is in exactly one list, once.
    @Test func aGroupKeepsEachPageOnceInItsLoopsList() {
        let (first, second) = (EmbeddedEventLoop(), EmbeddedEventLoop())
        let pages = (0..<10).map { Self.page(on: $0 % 3 == 0 ? second : first) }
        var group = PageGroup()
        for page in pages { group.insert(page) }
        group.insert(pages[4])
        #expect(group.count == 10 && group.lanes.count == 2)
        for index in [0, 5, 1, 9, 2] { group.remove(ObjectIdentifier(pages[index])) }
        group.remove(ObjectIdentifier(pages[0]))
        let remaining = [3, 4, 6, 7, 8].map { ObjectIdentifier(pages[$0]) }
        let listed = group.lanes.flatMap { lane in lane.pages.map(ObjectIdentifier.init) }
        #expect(group.count == 5 && listed.count == 5 && Set(listed) == Set(remaining))
        for lane in group.lanes { #expect(lane.pages.allSatisfy { $0.loop === lane.loop }) }
        // A page that left comes back to its loop's list; the last one out empties the group.
        group.insert(pages[9])
        #expect(group.lanes.first { $0.loop === second }?.pages.count == 3)
        for page in pages { group.remove(ObjectIdentifier(page)) }
        #expect(group.isEmpty && group.lanes.allSatisfy(\.pages.isEmpty))
    }
}
