import SiseCore
import Testing

/// A value written into a Korean sentence takes the particle its last sound asks for, never
/// "은(는)" (a careful reader noticed every one).
@Suite struct ParticleTests {
    @Test(arguments: [
        ("비트코인", "은", "은"), ("이더리움", "은", "은"), ("리플", "은", "은"), ("도지", "은", "는"), ("BTC", "은", "는"),
        ("SOL", "은", "은"), ("KRW-XRP", "을", "를"), ("KRW-BTCM", "을", "을"), ("10", "이", "이"), ("2", "이", "가"),
        ("'ETH'", "은", "는"), ("bitcoin", "을", "을"), ("ethereum", "을", "을"), ("127.0.0.1", "은", "은"),
    ])
    func theParticleFollowsTheLastSound(word: String, pair: String, expected: String) {
        #expect(Hangul.particle(after: word, pair) == expected)
    }

    @Test func aSentenceReadsWithoutBrackets() {
        #expect(UIText.notAMarket(.ko, ["text": "BTC!"]) == "'BTC!'는 종목이나 마켓 코드가 아닙니다")
        #expect(UIText.notAMarket(.ko, ["text": "솔"]) == "'솔'은 종목이나 마켓 코드가 아닙니다")
        #expect(UIText.coinNotFound(.ko, ["what": "no-such-coin"]) == "no-such-coin을 찾을 수 없습니다")
        #expect(UIText.notAMarket(.en, ["text": "BTC!"]) == "'BTC!' is not a symbol or market code")
        // Nothing readable before it: the bracketed form, not a guess.
        #expect(UIText.coinNotFound(.ko, ["what": "—"]) == "—을(를) 찾을 수 없습니다")
        // A value shaped like a placeholder is never read as one.
        #expect(UIText.coinNotFound(.ko, ["what": "{what:을}"]) == "{what:을}을 찾을 수 없습니다")
    }
}
