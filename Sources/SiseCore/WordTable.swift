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

    /// The text in `language`, its `{name}` placeholders filled from `values`; `{name:은}` is the
    /// value followed by the particle its last sound takes (`'SOL'은`, `'BTC'는`: `Hangul.particle`).
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
            let close = after.firstIndex(of: "}")
            let inside = close.map { String(after[..<$0]) } ?? ""
            let (name, pair) = inside.firstIndex(of: ":").map { (String(inside[..<$0]), String(inside[inside.index(after: $0)...])) } ?? (inside, "")
            if let close, let value = values[name], pair.isEmpty || Hangul.particle(after: value, pair) != nil {
                filled += value
                if !pair.isEmpty, let particle = Hangul.particle(after: value, pair) {
                    // A quoted value takes its particle after the closing quote.
                    let quote = after[after.index(after: close)...].first == "'"
                    if quote {
                        filled += "'"
                        rest = after[after.index(close, offsetBy: 2)...]
                        filled += particle
                        continue
                    }
                    filled += particle
                }
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
