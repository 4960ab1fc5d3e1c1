import Foundation
import SiseCore
import Testing

@Suite struct AlertBookTests {
    let btc = MarketID("KRW-BTC")!

    func rule(_ id: String, _ kind: AlertKind, _ value: Decimal, recurring: Bool = false, cooldown: Int = 0, window: Int? = nil) -> AlertRule {
        AlertRule(
            id: id,
            owner: "o",
            exchange: .upbit,
            market: btc,
            kind: kind,
            value: value,
            windowMinutes: window,
            recurring: recurring,
            cooldownSeconds: cooldown
        )
    }

    func ticks(_ book: inout AlertBook, _ prices: [Double], start: Int64 = 0, step: Int64 = 1_000) -> [String] {
        var fired: [String] = []
        for (index, price) in prices.enumerated() {
            fired += book.price(price, exchange: .upbit, market: btc, at: start + Int64(index) * step).map(\.rule.id)
        }
        return fired
    }

    @Test func aRuleAlreadyTrueFiresAtItsFirstEvaluationAndAOneShotLeaves() {
        var book = AlertBook()
        book.insert(rule("a", .above, 100))
        book.insert(rule("b", .below, 90))
        #expect(ticks(&book, [120]) == ["a"], "the first evaluation counts as 'did not hold'")
        #expect(book.rules["a"] == nil, "a one-shot rule fires once and leaves the book")
        #expect(ticks(&book, [95, 89, 80, 91, 85]) == ["b"])
        #expect(book.rules.isEmpty)
    }

    @Test func aPriceHoveringAtTheLineFiresOncePerCrossing() {
        var book = AlertBook()
        book.insert(rule("r", .above, 100, recurring: true))
        // Wiggles within the 0.5 % band fire nothing more; a real retreat re-arms it.
        #expect(ticks(&book, [99, 100, 99.9, 100.1, 99.6, 100.2, 99.8]) == ["r"])
        #expect(ticks(&book, [99.4, 100], start: 100_000) == ["r"])
    }

    @Test func aRecurringRulePassesOverCrossingsWithinItsCooldown() {
        var book = AlertBook()
        book.insert(rule("c", .above, 100, recurring: true, cooldown: 60))
        #expect(ticks(&book, [101], start: 0) == ["c"])
        #expect(ticks(&book, [90, 101], start: 10_000) == [], "10 s later: within the minute")
        #expect(ticks(&book, [90, 101], start: 70_000) == ["c"], "70 s later: fires again")
    }

    @Test func thresholdsOnBothSidesFireInOneTickOnlyWhenCrossed() {
        var book = AlertBook()
        for (index, level) in [100.0, 110, 120, 130].enumerated() { book.insert(rule("a\(index)", .above, Decimal(level))) }
        #expect(ticks(&book, [105]) == ["a0"])
        #expect(Set(ticks(&book, [125])) == ["a1", "a2"])
        #expect(ticks(&book, [129]) == [])
        #expect(ticks(&book, [131]) == ["a3"])
    }

    @Test func aMoveWithinTheWindowFiresAndAnOldLowDoesNotCount() {
        var book = AlertBook()
        book.insert(rule("m", .move, 5, recurring: true, window: 10))
        // +4 % in 10 min: nothing; then +6 % from the window's low: fires.
        #expect(ticks(&book, [100, 102, 104], step: 60_000) == [])
        #expect(ticks(&book, [106], start: 3 * 60_000) == ["m"])
        // A fall of 5 % from the window's high fires too (once re-armed under 80 % of it).
        #expect(ticks(&book, [104, 103], start: 4 * 60_000, step: 60_000) == [])
        #expect(ticks(&book, [100.5], start: 6 * 60_000) == ["m"])
        // Twenty minutes on, the old low and high are gone: 100 → 103 is only +2.5 %.
        var fresh = AlertBook()
        fresh.insert(rule("n", .move, 5, window: 10))
        #expect(ticks(&fresh, [100], start: 0) == [])
        #expect(ticks(&fresh, [98], start: 20 * 60_000) == [])
        #expect(ticks(&fresh, [100.45], start: 21 * 60_000) == [])
    }

    @Test func premiumRulesWatchThePremium() {
        var book = AlertBook()
        book.insert(rule("p", .premiumAbove, 3))
        book.insert(rule("q", .premiumBelow, -1))
        #expect(book.premiumVenues(.upbit, btc) == [.binance])
        #expect(book.premium(2.5, exchange: .upbit, market: btc, at: 0).isEmpty)
        #expect(book.premium(3.1, exchange: .upbit, market: btc, at: 1).map(\.rule.id) == ["p"])
        #expect(book.premium(-1.2, exchange: .upbit, market: btc, at: 2).map(\.rule.id) == ["q"])
        #expect(book.premium(.nan, exchange: .upbit, market: btc, at: 3).isEmpty)
    }

    @Test func disabledAndRemovedRulesNeverFire() {
        var book = AlertBook()
        var off = rule("x", .above, 1)
        off.enabled = false
        book.insert(off)
        book.insert(rule("y", .above, 1))
        book.remove("y")
        #expect(ticks(&book, [5]) == [])
        #expect(!book.watches(.upbit, btc))
    }

    @Test func inputIsCheckedInOnePlace() throws {
        let move = try AlertInput(market: "krw-btc", type: "move", percent: "5", windowMinutes: 10, recurring: true).rule(id: "1", owner: "o")
        #expect(move.kind == .move && move.windowMinutes == 10 && move.cooldownSeconds == 600 && move.market == btc)
        #expect(throws: AlertInput.Failure.self) { try AlertInput(market: "KRW-BTC", type: "above", price: "-1").rule(id: "1", owner: "o") }
        #expect(throws: AlertInput.Failure.self) { try AlertInput(market: "KRW-BTC", type: "sideways", price: "1").rule(id: "1", owner: "o") }
        #expect(throws: AlertInput.Failure.self) { try AlertInput(market: "BTC-ETH", type: "premiumAbove", percent: "3").rule(id: "1", owner: "o") }
        #expect(throws: AlertInput.Failure.self) {
            try AlertInput(market: "KRW-BTC", type: "move", percent: "5", windowMinutes: 0).rule(id: "1", owner: "o")
        }
        let premium = try AlertInput(market: "KRW-BTC", type: "premiumBelow", percent: "-1.5").rule(id: "1", owner: "o")
        #expect(premium.value == Decimal(string: "-1.5"))
    }
}
