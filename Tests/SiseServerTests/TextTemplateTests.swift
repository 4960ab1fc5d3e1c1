import Testing

@testable import SiseServer

/// The one-pass fill behind the page's exchange columns, its versioned addresses and the service
/// worker's shell.
@Suite struct TextTemplateTests {
    @Test(arguments: [
        ("", ["a": "b"], ""),
        ("no keys here", ["<!--x-->": "X"], "no keys here"),
        ("<!--x--> and <!--x-->", ["<!--x-->": "X"], "X and X"),
        (
            #"<link href="/app.css"><script src="/app.js">"#,
            [#"href="/app.css""#: #"href="/v/1/app.css""#, #"src="/app.js""#: #"src="/v/1/app.js""#],
            #"<link href="/v/1/app.css"><script src="/v/1/app.js">"#
        ),
        ("한글 <!--x-->끝", ["<!--x-->": "시세"], "한글 시세끝"),
        ("<!--x", ["<!--x-->": "X"], "<!--x"),
        ("ab", ["": "never", "b": ""], "a"),
    ])
    func fillsEveryKeyInOnePass(text: String, values: [String: String], filled: String) {
        #expect(TextTemplate.fill(text, values) == filled)
    }

    @Test func aValueIsNotReadAgainForKeys() {
        #expect(TextTemplate.fill("<!--a-->", ["<!--a-->": "<!--b-->", "<!--b-->": "B"]) == "<!--b-->")
    }
}
