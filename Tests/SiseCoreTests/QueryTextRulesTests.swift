import SiseCore
import Testing

/// The two rules every query and body string passes: `ControlCharacters` and `CommaList`.
@Suite struct QueryTextRulesTests {
    @Test func controlCharactersAreC0DelAndC1() {
        #expect(ControlCharacters.first(in: "Asia/Seoul\u{0}AAAA") == "\u{0}")
        #expect(ControlCharacters.first(in: "UTC\u{1b}[31m") == "\u{1b}")
        #expect(ControlCharacters.first(in: "a\u{7f}") == "\u{7f}")
        #expect(ControlCharacters.first(in: "a\u{85}b") == "\u{85}")
        #expect(ControlCharacters.first(in: "a\u{9f}b") == "\u{9f}")
        #expect(ControlCharacters.first(in: "두 줄\n") == "\n")
        #expect(ControlCharacters.first(in: "두 줄\r\n\t끝", lineBreaks: true) == nil)
        #expect(ControlCharacters.first(in: "a\u{0}\n", lineBreaks: true) == "\u{0}")
        // Printable text beyond ASCII is text: Hangul, a no-break space, an emoji, U+00A0.
        #expect(ControlCharacters.first(in: "비트코인 \u{a0}🚀 ¥") == nil)
        #expect(ControlCharacters.name("\u{1b}") == "U+001B")
        #expect(ControlCharacters.name("\u{85}") == "U+0085")
    }

    @Test func aListHasNoEmptyItem() {
        #expect(CommaList.items("BTC,ETH", limit: 100) == ["BTC", "ETH"])
        #expect(CommaList.items("BTC", limit: 1) == ["BTC"])
        #expect(CommaList.items("BTC,,ETH", limit: 100) == nil)
        #expect(CommaList.items("BTC,", limit: 100) == nil)
        #expect(CommaList.items(",BTC", limit: 100) == nil)
        #expect(CommaList.items("", limit: 100) == nil)
        #expect(CommaList.items(",", limit: 100) == nil)
        #expect(CommaList.items("A,B,C", limit: 2) == nil)
        // Bounded before it is split: a megabyte of commas is not walked.
        #expect(CommaList.items(String(repeating: "A", count: 1_000_000), limit: 100) == nil)
    }
}
