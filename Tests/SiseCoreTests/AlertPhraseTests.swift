import Foundation
import SiseCore
import Testing

/// The TUI prompt's one-line alerts, in the CLI's words: what each line becomes (on the coin on
/// screen unless a list leads it), and the field a bad line is refused under.
@Suite struct AlertPhraseTests {
    static let eth = MarketID("KRW-ETH")!

    @Test(arguments: [
        ("above 150000000", "KRW-ETH above value 150000000"),
        ("move 5 10", "KRW-ETH move value 5 window 10"),
        ("move 5", "KRW-ETH move value 5 window 10"),
        ("volume-spike 3 2 repeat", "KRW-ETH volumeSpike value 3 window 2 repeat"),
        ("indicator rsiBelow 15m", "KRW-ETH indicator value 0 window 15"),
        ("favorites move 5 30", "favorites move value 5 window 30"),
        ("portfolio pnl-amount-below -1000000", "portfolio pnlAmountBelow value -1000000"),
        ("HOLDINGS pnl-below -10 반복", "holdings pnlBelow value -10 repeat"),
    ])
    func aLineBecomesARule(_ text: String, _ expected: String) throws {
        let rule = try AlertPhrase.input(text, market: Self.eth, exchange: .upbit).rule(id: "a", owner: "me")
        let said =
            "\(rule.market.code) \(rule.kind.rawValue) value \(rule.value)" + (rule.windowMinutes.map { " window \($0)" } ?? "")
            + (rule.recurring ? " repeat" : "")
        #expect(said == expected)
    }

    @Test(arguments: [
        ("", "type"), ("hover 5", "type"), ("above", "type"), ("move 5 ten", "windowMinutes"), ("move 5 2000", "windowMinutes"),
        ("volume-spike 3 x", "windowMinutes"), ("favorites above 1", "market"), ("portfolio move 5", "market"),
        (String(repeating: "9", count: 101), "type"),
    ])
    func aBadLineIsRefusedUnderItsField(_ text: String, _ field: String) {
        do {
            _ = try AlertPhrase.input(text, market: Self.eth, exchange: .upbit).rule(id: "a", owner: "me")
            Issue.record("\(text): kept")
        } catch {
            #expect(error.field == field, "\(text): \(error.message)")
        }
    }

    @Test func noCoinOnScreenNeedsAList() {
        #expect(throws: AlertInput.Failure.self) { try AlertPhrase.input("above 1", market: nil, exchange: .upbit) }
        #expect((try? AlertPhrase.input("favorites move 5", market: nil, exchange: .bithumb))?.exchange == "bithumb")
    }
}
