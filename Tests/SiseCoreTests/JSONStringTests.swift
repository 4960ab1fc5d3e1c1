import Foundation
import SiseCore
import Testing

/// `JSONString.quoted`: what each character becomes, and hostile text reading back as itself.
@Suite struct JSONStringTests {
    @Test(arguments: [
        ("BTC", #""BTC""#),
        ("비트코인", #""비트코인""#),
        ("", #""""#),
        (#"say "hi""#, #""say \"hi\"""#),
        (#"back\slash"#, #""back\\slash""#),
        ("line\nbreak\r\ttab", #""line\nbreak\r\ttab""#),
        ("<img src=x onerror=alert(1)>&", #""\u003cimg src=x onerror=alert(1)\u003e\u0026""#),
        ("\u{0}\u{1}\u{1f}", #""\u0000\u0001\u001f""#),
        ("🚀 코인 \u{7f}", "\"🚀 코인 \u{7f}\""),
    ])
    func eachCharacterIsSpelledAsJSONWants(_ text: String, _ expected: String) {
        #expect(JSONString.quoted(text) == expected)
    }

    @Test func hostileTextReadsBackAsItself() throws {
        let texts = ["평범한 이름", "\"</script><script>x()</script>", "탭\t과 줄\n", "\u{0}\u{8}\u{c}\u{1b}[31m", "é 👩‍👩‍👧 ﷽", "\\\"\\"]
        for text in texts {
            let quoted = JSONString.quoted(text)
            #expect(!quoted.contains("<") && !quoted.contains(">") && !quoted.contains("&"))
            let decoded = try JSONDecoder().decode(String.self, from: Data(quoted.utf8))
            #expect(decoded == text)
        }
    }
}
