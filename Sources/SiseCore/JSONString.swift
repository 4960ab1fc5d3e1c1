/// A JSON string literal for hand-assembled JSON. `<`, `>` and `&` are escaped too, so the text
/// stays inert even if it ever lands inside HTML.
public enum JSONString {
    public static func quoted(_ text: String) -> String {
        // Most text (keys, figures, coin names) needs no escape: one scan, one copy.
        guard text.utf8.contains(where: needsEscape) else {
            var out = "\""
            out.reserveCapacity(text.utf8.count + 2)
            out += text
            out += "\""
            return out
        }
        // Every escaped character is ASCII, so the other bytes (UTF-8 sequences) pass through whole.
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case _ where needsEscape(byte): out += unicodeEscape(byte)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    /// Control characters, the quote and backslash, and the three that matter inside HTML.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")
    }

    /// `\u00XX` for an ASCII byte.
    private static func unicodeEscape(_ byte: UInt8) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        return Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
    }
}
