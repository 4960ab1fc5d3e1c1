/// A table of words in Korean and English, one case per text: `UIText` (what the faces show) and
/// `RefusalText` (why the server refused a request). A face names a case; it never spells a string.
/// `{name}` in a text marks a value filled in at use.
public protocol WordTable: RawRepresentable, CaseIterable, Sendable where RawValue == String {
    /// The Korean and the English text.
    var texts: (ko: String, en: String) { get }
}

extension WordTable {
    /// The whole table in one language, by case name.
    public static func table(_ language: Language) -> [String: String] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, language == .ko ? $0.texts.ko : $0.texts.en) })
    }

    /// The text in `language`, its `{name}` placeholders filled from `values`.
    /// One pass: a value is never read for placeholders itself (a coin named `{age}` stays
    /// `{age}`), and an unknown placeholder stays as written.
    public func callAsFunction(_ language: Language, _ values: [String: String] = [:]) -> String {
        let text = language == .ko ? texts.ko : texts.en
        guard !values.isEmpty else { return text }
        var filled = ""
        filled.reserveCapacity(text.utf8.count)
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            filled += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                filled += value
                rest = after[after.index(after: close)...]
            } else {
                filled += "{"
                rest = after
            }
        }
        filled += rest
        return filled
    }
}
