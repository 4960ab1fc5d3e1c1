/// A number as a person types it into any number field: `90,000,000` (Sise writes every figure so),
/// full-width `９０，０００` (a Korean keyboard's 전각 mode), spaces around it. Read as the plain ASCII
/// number it means (`90000000`), or refused: commas group the whole part by threes (`9,0000` and
/// `1,5` are not numbers), never the fraction. Nothing else is changed: a sign, a point, a hex or
/// exponent spelling stay for the reader of the field to accept or refuse.
public enum TypedNumber {
    public static func plain(_ text: String) -> String? {
        guard let text = InputBounds.short(text) else { return nil }
        var ascii = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xFF10...0xFF19: ascii.unicodeScalars.append(Unicode.Scalar(scalar.value - 0xFF10 + 0x30) ?? "0")
            case 0xFF0C: ascii.append(",")
            case 0xFF0E: ascii.append(".")
            case 0xFF0D, 0x2212: ascii.append("-")
            case 0xFF0B: ascii.append("+")
            case 0x3000: ascii.append(" ")
            default: ascii.unicodeScalars.append(scalar)
            }
        }
        let trimmed = ascii.trimmingSpaces
        guard trimmed.contains(",") else { return trimmed }
        let unsigned = trimmed.drop { $0 == "-" || $0 == "+" }
        let whole = unsigned.prefix { $0 != "." }
        guard !unsigned.dropFirst(whole.count).contains(",") else { return nil }
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count), groups.dropFirst().allSatisfy({ $0.count == 3 }),
            whole.allSatisfy({ $0 == "," || ("0"..."9").contains($0) })
        else { return nil }
        return trimmed.filter { $0 != "," }
    }

    /// A whole number within `range` typed as a person types it (`1,000,000`, `１００００`): nil for
    /// anything else — a fraction, a sign, hex (`0x2710`), an exponent (`1e6`, `0x1p20`).
    public static func whole(_ text: String, in range: ClosedRange<Int>) -> Int? {
        guard let plain = plain(text), (1...19).contains(plain.count), plain.allSatisfy({ ("0"..."9").contains($0) }),
            let value = Int(plain), range.contains(value)
        else { return nil }
        return value
    }
}

extension String {
    /// Without the spaces (ASCII and tabs) around it.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
