import Foundation
import SiseCore
import Testing

/// Premium rules on a matrix cell (a venue per rule) and lines that must hold for minutes.
@Suite struct AlertHoldTests {
    let btc = MarketID("KRW-BTC")!
    let minute: Int64 = 60_000

    func rule(
        _ id: String,
        _ kind: AlertKind = .premiumAbove,
        _ value: Decimal = 3,
        venue: GlobalVenue? = nil,
        hold: Int? = nil,
        recurring: Bool = false
    ) -> AlertRule {
        AlertRule(id: id, owner: "o", exchange: .upbit, market: btc, kind: kind, value: value, venue: venue, holdMinutes: hold, recurring: recurring)
    }

    /// Readings of one venue's premium, (minute offset in seconds, percent): the ids fired, in order.
    func readings(_ book: inout AlertBook, venue: GlobalVenue = .binance, _ values: [(seconds: Int64, percent: Double)]) -> [String] {
        values.flatMap { book.premium($0.percent, exchange: .upbit, market: btc, venue: venue, at: $0.seconds * 1_000).map(\.rule.id) }
    }

    @Test func aVenuesRuleReadsOnlyThatVenuesPremium() {
        var book = AlertBook()
        book.insert(rule("okx", venue: .okx))
        book.insert(rule("binance"))
        #expect(Set(book.premiumVenues(.upbit, btc)) == [.okx, .binance])
        #expect(readings(&book, venue: .bybit, [(0, 9)]) == [])
        #expect(readings(&book, venue: .okx, [(0, 3.5)]) == ["okx"])
        #expect(readings(&book, [(1, 2)]) == [])
        #expect(readings(&book, [(2, 3.1)]) == ["binance"])
        #expect(book.premiumVenues(.upbit, btc).isEmpty, "both one-shot rules left")
    }

    /// The firing table of a line held for 2 minutes (above 3 %): (seconds, percent) → fires.
    @Test(
        arguments: [
            // Holds from 0 s: fires at 120 s, not before.
            ([(0, 3.2), (60, 3.4), (119, 3.1), (120, 3.3)], [false, false, false, true]),
            // Dips under the line at 90 s: the hold starts again at 100 s.
            ([(0, 3.2), (90, 2.9), (100, 3.2), (160, 3.2), (219, 3.2), (220, 3.5)], [false, false, false, false, false, true]),
            // A silence longer than a minute cannot vouch: the hold starts again after it (at 150 s, then 270 s).
            ([(0, 3.2), (30, 3.2), (150, 3.2), (200, 3.2), (250, 3.2), (270, 3.2)], [false, false, false, false, false, true]),
            ([(0, 3.2), (60, 3.2), (119, 3.2), (179, 3.2), (250, 3.2), (300, 3.2)], [false, false, false, true, false, false]),
            // Fired once, it stays quiet while the line holds, re-arms 0.2 points back (2.8), then holds again.
            (
                [(0, 4), (60, 4), (120, 4), (180, 4), (240, 2.9), (250, 2.7), (260, 3.5), (320, 3.5), (380, 3.5)],
                [false, false, true, false, false, false, false, false, true]
            ),
        ] as [([(Int64, Double)], [Bool])]
    )
    func aHeldLineFiresOnlyAfterHoldingWithoutAGap(sequence: [(Int64, Double)], expected: [Bool]) {
        var book = AlertBook()
        book.insert(rule("h", hold: 2, recurring: true))
        let fired = sequence.map { !readings(&book, [($0.0, $0.1)]).isEmpty }
        #expect(fired == expected)
    }

    @Test func aHeldLineBelowAndANaNReading() {
        var book = AlertBook()
        book.insert(rule("low", .premiumBelow, -1, venue: .bybit, hold: 1))
        #expect(readings(&book, venue: .bybit, [(0, -1.5), (30, .nan), (59, -1.2)]) == [])
        #expect(readings(&book, venue: .bybit, [(60, -1.1)]) == ["low"])
        #expect(book.premiumVenues(.upbit, btc).isEmpty, "a one-shot held line leaves once fired")
    }

    @Test func theTermsAreCheckedInOnePlace() throws {
        let okx = try AlertInput(market: "KRW-BTC", type: "premiumAbove", percent: "3", venue: " OKX ", holdMinutes: 10).rule(id: "1", owner: "o")
        #expect(okx.venue == .okx && okx.holdMinutes == 10 && okx.premiumVenue == .okx)
        #expect(okx.describe(.ko) == "김프 3% 이상 (OKX 기준), 10분 유지")
        #expect(okx.describe(.en) == "premium at or above 3% against OKX, held 10 min")
        let tether = try AlertInput(market: "KRW-USDT", type: "premiumBelow", percent: "-1", venue: "binance").rule(id: "2", owner: "o")
        #expect(tether.venue == nil && tether.premiumVenue == nil)
        func refused(_ input: AlertInput) -> UIText? {
            do {
                _ = try input.rule(id: "1", owner: "o")
                return nil
            } catch { return error.text }
        }
        #expect(refused(AlertInput(market: "KRW-BTC", type: "premiumAbove", percent: "3", venue: "kraken")) == .alertBadVenue)
        #expect(refused(AlertInput(market: "KRW-USDT", type: "premiumAbove", percent: "3", venue: "okx")) == .alertTetherHasNoVenue)
        #expect(refused(AlertInput(market: "KRW-BTC", type: "premiumAbove", percent: "3", holdMinutes: 0)) == .alertBadHold)
        #expect(refused(AlertInput(market: "KRW-BTC", type: "premiumAbove", percent: "3", holdMinutes: 1_441)) == .alertBadHold)
        #expect(refused(AlertInput(market: "KRW-BTC", type: "above", price: "1", venue: "okx")) == .alertTermsNeedPremium)
        #expect(refused(AlertInput(market: "KRW-BTC", type: "move", percent: "5", holdMinutes: 5)) == .alertTermsNeedPremium)
    }

    @Test func aFiringAndTheRuleJSONSayTheVenue() throws {
        let okx = rule("1", venue: .okx, hold: 5)
        let firing = AlertFiring(id: "f", rule: okx, price: 1, observed: 3.2, at: 0)
        let body = try #require(String(data: try JSONEncoder().encode(firing), encoding: .utf8))
        #expect(body.contains(#""venue":"okx""#))
        #expect(try JSONDecoder().decode(AlertFiring.self, from: Data(body.utf8)).venue == "okx")
        let json = try #require(String(data: try JSONEncoder().encode(AlertRuleJSON(okx, language: .en)), encoding: .utf8))
        #expect(json.contains(#""venue":"okx""#) && json.contains(#""holdMinutes":5"#))
        let price = try #require(
            String(data: try JSONEncoder().encode(AlertFiring(id: "g", rule: rule("2", .above, 1), price: 1, observed: nil, at: 0)), encoding: .utf8)
        )
        #expect(!price.contains("venue"))
    }
}
