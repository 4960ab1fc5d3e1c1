import SiseCore
import Testing

/// `Accept-Language` comes from outside: every shape must pick a language, never trap.
@Suite struct LanguageTests {
    @Test(arguments: [
        ";", ",", ";;", ",;,", ";q=1", "=", "q=", " ; ", "\u{0}", "ko;", "en;q", "en;q=abc",
        String(repeating: ";", count: 10_000), String(repeating: "en,", count: 5_000),
    ])
    func malformedHeadersNeverTrap(header: String) {
        _ = Language(preference: header)
    }

    @Test func emptyOrUnknownMeansKorean() {
        #expect(Language(preference: nil) == .ko)
        #expect(Language(preference: "") == .ko)
        #expect(Language(preference: ";") == .ko)
        #expect(Language(preference: "fr-FR, de") == .ko)
    }

    @Test func weightsAreHonoured() {
        #expect(Language(preference: "en-US,en;q=0.9") == .en)
        #expect(Language(preference: "fr, en;q=0.5, ko;q=0.9") == .ko)
        #expect(Language(preference: "ko;q=0.2, en;q=0.8") == .en)
        #expect(Language(preference: "en;q=0, fr") == .ko)
        #expect(Language(preference: "ko-KR,ko;q=0.9,en-US;q=0.8") == .ko)
    }
}
