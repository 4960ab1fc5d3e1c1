import Foundation
import SiseCore
import Testing

/// What one owner's rules may make the engine watch: rule × market pairs counted as rules arm
/// and leave, a wide rule's list armed only up to `AlertBook.pairsPerOwner`, and the series
/// seeded from upstream owner after owner (one owner's hundreds never ahead of another's first).
@Suite struct AlertPairBoundTests {
    static let markets = (0..<440).map { index in MarketID("KRW-C\(index)")! }

    static func wide(_ id: String, owner: String, fast: Int) -> AlertRule {
        AlertRule(
            id: id,
            owner: owner,
            exchange: .upbit,
            market: AlertTarget.favorites.market,
            kind: .indicator,
            value: 0,
            windowMinutes: 1,
            indicator: .maCrossUp(fast: fast, slow: 120),
            target: .favorites,
            recurring: true
        )
    }

    static func key(_ owner: String) -> AlertBook.ListKey { AlertBook.ListKey(owner: owner, target: .favorites, exchange: .upbit) }

    @Test func pairsAreCountedAsRulesArmAndLeave() throws {
        var book = AlertBook()
        book.insert(AlertRule(id: "one", owner: "o", exchange: .upbit, market: try #require(MarketID("KRW-BTC")), kind: .above, value: 1))
        #expect(book.pairCount(owner: "o") == 1)
        book.insert(Self.wide("w", owner: "o", fast: 5))
        book.setList(Self.key("o"), Set(Self.markets.prefix(10)))
        #expect(book.pairCount(owner: "o") == 11)
        book.setList(Self.key("o"), Set(Self.markets.prefix(4)))
        #expect(book.pairCount(owner: "o") == 5)
        book.remove("w")
        #expect(book.pairCount(owner: "o") == 1)
        book.setOwner("one", "account")
        #expect(book.pairCount(owner: "o") == 0)
        #expect(book.pairCount(owner: "account") == 1)
        book.remove("one")
        #expect(book.pairCount == 0)
    }

    @Test func aListPastTheBoundArmsNoMoreMarkets() {
        var book = AlertBook()
        book.setList(Self.key("flood"), Set(Self.markets))
        for index in 0..<6 {
            book.insert(Self.wide("w\(index)", owner: "flood", fast: index + 1))
            book.setList(Self.key("flood"), Set(Self.markets))
        }
        // 6 × 440 = 2,640 asked; 2,000 armed, the rest counted as left out.
        #expect(book.pairCount(owner: "flood") == AlertBook.pairsPerOwner)
        #expect((0..<6).map { book.unarmedMarkets("w\($0)") }.reduce(0, +) == 6 * 440 - AlertBook.pairsPerOwner)
        // Another owner is not held back by the flood's bound.
        book.insert(Self.wide("mine", owner: "calm", fast: 3))
        book.setList(Self.key("calm"), Set(Self.markets.prefix(3)))
        #expect(book.pairCount(owner: "calm") == 3)
        // The series are shared: one per market and interval, whatever the rules.
        #expect(book.seriesCount == 440)
    }

    @Test func ownersTakeTurnsForTheirSeries() throws {
        var book = AlertBook()
        book.insert(Self.wide("flood", owner: "a", fast: 2))
        book.setList(Self.key("a"), Set(Self.markets.dropFirst(10)))
        let mine = try #require(MarketID("KRW-C3"))
        book.insert(
            AlertRule(
                id: "b1",
                owner: "b",
                exchange: .upbit,
                market: mine,
                kind: .indicator,
                value: 0,
                windowMinutes: 1,
                indicator: .rsiAbove(level: 70)
            )
        )
        #expect(book.isPreparing("b1"))
        #expect(book.isPreparing("flood"))
        let order = book.unseededInTurn()
        #expect(order.count == 431)
        // b's one series is among the first two asked for, not after a's 430.
        #expect(order.prefix(2).contains { $0.market == mine })
        book.seed(.upbit, mine, minutes: 1, [])
        #expect(!book.isPreparing("b1"))
        #expect(book.isPreparing("flood"))
        #expect(!book.unseededInTurn(on: .korbit).contains { _ in true })
    }
}
