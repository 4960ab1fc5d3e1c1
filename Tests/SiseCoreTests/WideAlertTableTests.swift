import Foundation
import SiseCore
import Testing

/// Rules on "any coin of my favorites / holdings" as a firing table: the list changes and the
/// prices of its markets, a minute apart, and the (minute, market) firings they make — members
/// following the list, each with its own window and cool-down, a one-shot rule ending at its first
/// firing, and a market that left the list firing nothing.
@Suite struct WideAlertTableTests {
    enum Step: Sendable {
        case list([String])
        case price(String, Double)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        var kind: AlertKind = .move
        var value: Decimal = 5
        var recurring = true
        var cooldown = 0
        let steps: [(minute: Int64, step: Step)]
        let fires: [(minute: Int64, market: String)]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "every market of the list fires on its own move",
            steps: [
                (0, .list(["KRW-BTC", "KRW-ETH"])), (0, .price("KRW-BTC", 100)), (0, .price("KRW-ETH", 10)), (1, .price("KRW-BTC", 106)),
                (2, .price("KRW-ETH", 10.6)), (3, .price("KRW-XRP", 1)), (4, .price("KRW-XRP", 2)),
            ],
            fires: [(1, "KRW-BTC"), (2, "KRW-ETH")]
        ),
        Row(
            name: "a market starred later is followed; one unstarred fires no more",
            steps: [
                (0, .list(["KRW-BTC"])), (0, .price("KRW-BTC", 100)), (0, .price("KRW-ETH", 10)), (1, .list(["KRW-ETH"])),
                (1, .price("KRW-ETH", 10)), (2, .price("KRW-BTC", 120)), (3, .price("KRW-ETH", 11)),
            ],
            fires: [(3, "KRW-ETH")]
        ),
        Row(
            name: "a member that stays keeps its window when the list changes",
            steps: [
                (0, .list(["KRW-BTC"])), (0, .price("KRW-BTC", 100)), (1, .list(["KRW-BTC", "KRW-ETH"])), (2, .price("KRW-BTC", 105)),
            ],
            fires: [(2, "KRW-BTC")]
        ),
        Row(
            name: "cool-downs are per market: ETH fires while BTC cools down",
            cooldown: 600,
            steps: [
                (0, .list(["KRW-BTC", "KRW-ETH"])), (0, .price("KRW-BTC", 100)), (0, .price("KRW-ETH", 10)), (1, .price("KRW-BTC", 106)),
                (2, .price("KRW-BTC", 100)), (3, .price("KRW-BTC", 94)), (3, .price("KRW-ETH", 10.6)),
            ],
            fires: [(1, "KRW-BTC"), (3, "KRW-ETH")]
        ),
        Row(
            name: "one-shot: the first market to fire ends the rule",
            recurring: false,
            steps: [
                (0, .list(["KRW-BTC", "KRW-ETH"])), (0, .price("KRW-BTC", 100)), (0, .price("KRW-ETH", 10)), (1, .price("KRW-BTC", 106)),
                (2, .price("KRW-ETH", 10.6)),
            ],
            fires: [(1, "KRW-BTC")]
        ),
        Row(
            name: "an emptied list watches nothing; refilled, it watches again",
            steps: [
                (0, .list(["KRW-BTC"])), (0, .price("KRW-BTC", 100)), (1, .list([])), (2, .price("KRW-BTC", 110)), (3, .list(["KRW-BTC"])),
                (3, .price("KRW-BTC", 100)), (4, .price("KRW-BTC", 106)),
            ],
            fires: [(4, "KRW-BTC")]
        ),
        Row(
            name: "a premium rule reads the KRW markets of the list only",
            kind: .premiumAbove,
            value: 3,
            steps: [(0, .list(["KRW-BTC", "BTC-ETH"]))],
            fires: []
        ),
    ]

    @Test(arguments: rows)
    func aWideRuleFollowsItsList(_ row: Row) throws {
        var book = AlertBook()
        let rule = AlertRule(
            id: "wide",
            owner: "me",
            exchange: .upbit,
            market: AlertTarget.favorites.market,
            kind: row.kind,
            value: row.value,
            windowMinutes: row.kind == .move ? 10 : nil,
            target: .favorites,
            recurring: row.recurring,
            cooldownSeconds: row.cooldown
        )
        book.insert(rule)
        let key = AlertBook.ListKey(owner: "me", target: .favorites, exchange: .upbit)
        #expect(book.unreadLists == [key], "a new rule's list is to be read")
        var fired: [(minute: Int64, market: String)] = []
        for (minute, step) in row.steps {
            switch step {
            case .list(let codes): book.setList(key, Set(codes.compactMap(MarketID.init)))
            case .price(let code, let price):
                let market = try #require(MarketID(code))
                for one in book.price(price, exchange: .upbit, market: market, at: minute * 60_000) {
                    #expect(one.rule.id == "wide" && one.rule.target == .favorites, "fired under the wide rule's own id")
                    fired.append((minute, one.rule.market.code))
                }
            }
        }
        #expect(fired.map { "\($0.minute) \($0.market)" } == row.fires.map { "\($0.minute) \($0.market)" })
        if row.kind.isPremiumKind {
            #expect(book.memberMarkets("wide") == [MarketID("KRW-BTC")!])
            #expect(book.premiumWatches.map(\.market.code) == ["KRW-BTC"])
        }
        #expect(book.rules.count == (row.recurring ? 1 : 0), "a wide rule counts once, however long its list")
    }

    @Test func aPriceLineNeverTakesAList() {
        var book = AlertBook()
        book.insert(AlertRule(id: "x", owner: "me", exchange: .upbit, market: AlertTarget.holdings.market, kind: .above, value: 1, target: .holdings))
        #expect(book.rules.isEmpty && book.unreadLists.isEmpty)
        for target in ["favorites", "HOLDINGS"] {
            #expect(throws: PortfolioInput.Failure.self) { try AlertInput(market: target, type: "above", price: "100").rule(id: "a", owner: "me") }
            let failure = try? AlertInput(market: target, type: "below", price: "100").rule(id: "a", owner: "me")
            #expect(failure == nil)
        }
        let wide = try? AlertInput(market: " Holdings ", type: "premiumAbove", percent: "3").rule(id: "a", owner: "me")
        #expect(wide?.target == .holdings && wide?.market.code == "holdings")
        #expect(AlertRuleJSON(wide!, language: .en).target == "holdings")
        #expect(wide?.describe(.en) == "any of my holdings: premium at or above 3%")
        #expect(wide?.describe(.ko) == "보유 코인 전체 · 김프 3% 이상")
    }

    @Test func removingAWideRuleLeavesNoMemberBehind() {
        var book = AlertBook()
        book.insert(
            AlertRule(
                id: "w",
                owner: "me",
                exchange: .upbit,
                market: AlertTarget.favorites.market,
                kind: .move,
                value: 5,
                windowMinutes: 10,
                target: .favorites,
                recurring: true
            )
        )
        book.setList(.init(owner: "me", target: .favorites, exchange: .upbit), [MarketID("KRW-BTC")!, MarketID("KRW-ETH")!])
        #expect(book.watches(.upbit, MarketID("KRW-BTC")!))
        book.setOwner("w", "account")
        #expect(!book.watches(.upbit, MarketID("KRW-BTC")!), "another owner's list: read again")
        #expect(book.unreadLists == [.init(owner: "account", target: .favorites, exchange: .upbit)])
        book.remove("w")
        #expect(book.rules.isEmpty && book.unreadLists.isEmpty && book.exchanges.isEmpty)
    }
}

extension AlertKind {
    fileprivate var isPremiumKind: Bool { self == .premiumAbove || self == .premiumBelow }
}
