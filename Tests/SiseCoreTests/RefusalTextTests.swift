import SiseCore
import Testing

/// The refusals' table: every entry in both languages with the same placeholders, and every
/// parameter × rule a sentence that starts with the parameter's name, never its key.
@Suite struct RefusalTextTests {
    static func placeholders(_ text: String) -> Set<String> {
        Set(text.matches(of: /\{([a-z]+)\}/).map { String($0.1) })
    }

    @Test(arguments: RefusalText.allCases)
    func isWordedInBothLanguages(_ text: RefusalText) {
        #expect(Self.placeholders(text.texts.ko) == Self.placeholders(text.texts.en), "\(text)")
        let bare = text.texts.ko.replacing(/\{[a-z]+\}/, with: "")
        #expect(text == .parameterSentence || Hangul.isKorean(bare), "\(text) has no Korean: \(text.texts.ko)")
        #expect(!Hangul.isKorean(text.texts.en), "\(text) has Korean in English: \(text.texts.en)")
    }

    static let rules: [ParameterRefusal.Rule] = [
        .oneOf(["a", "b"]), .listOf(["ma", "rsi"]), .between(1, 30), .atMostCharacters(64), .lengthCharacters(2, 64), .atMostItems(10),
        .marketCode, .symbolList(100), .coinOrMarket, .imageURL, .utf8, .shapedLike("{…}"), .withinRank(1_000), .base64URLBytes(16),
        .pushServiceURL, .exchanges,
    ]

    @Test(arguments: ParameterRefusal.Parameter.allCases)
    func everyParameterIsNamedNotKeyed(_ parameter: ParameterRefusal.Parameter) {
        for rule in Self.rules {
            let refusal = ParameterRefusal(parameter, rule)
            let ko = refusal.message(.ko)
            let en = refusal.message(.en)
            #expect(ko.hasPrefix(parameter(.ko)) && en.hasPrefix(parameter(.en)), "\(ko) / \(en)")
            #expect(Hangul.isKorean(ko) && !Hangul.isKorean(en), "\(ko) / \(en)")
            #expect(!ko.contains("{") || rule == .shapedLike("{…}"), "an unfilled placeholder: \(ko)")
            #expect(!en.contains("{") || rule == .shapedLike("{…}"), "an unfilled placeholder: \(en)")
            #expect(!ko.hasPrefix(parameter.rawValue + ":") && !en.hasPrefix(parameter.rawValue + ":"), "\(en)")
        }
    }

    @Test func theSentenceReadsAsAPersonWouldSayIt() {
        let refusal = ParameterRefusal(.exchange, .exchanges)
        #expect(refusal.message(.ko) == "거래소는 upbit, korbit, bithumb, coinone 중 하나여야 합니다")
        #expect(refusal.message(.en) == "the exchange must be one of upbit, korbit, bithumb, coinone")
        #expect(ParameterRefusal(.perPage, .between(1, 250)).rule(.en) == "must be a whole number from 1 to 250")
    }
}
