/// The one rule for text that comes from outside — every string of every request body and query:
/// no C0 control (U+0000–U+001F), no DEL (U+007F), no C1 control (U+0080–U+009F). A NUL cuts a
/// SQLite text short and fails a PostgreSQL write; an ESC echoed back paints a terminal. Only a
/// field documented as multi-line (a transaction's note) keeps line breaks and tabs.
public enum ControlCharacters {
    /// The first control character in `text`, or nil when it has none; `lineBreaks` lets LF, CR
    /// and TAB through.
    public static func first(in text: some StringProtocol, lineBreaks: Bool = false) -> Unicode.Scalar? {
        text.unicodeScalars.first { isControl($0, lineBreaks: lineBreaks) }
    }

    public static func isControl(_ scalar: Unicode.Scalar, lineBreaks: Bool = false) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: !lineBreaks
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }

    /// `U+001B`: how a refusal names the character (never the character itself).
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The fields documented as multi-line: their line breaks and tabs are text.
    public static let multiLineFields: Set<String> = ["note"]
}
