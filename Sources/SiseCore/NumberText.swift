import Foundation

/// Locale-independent number text: `.` for decimals, `,` every three digits, never `-0`.
public enum NumberText {
    /// `value` rounded to `decimals` places with thousands separators, e.g. `103,493,000`.
    public static func grouped(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        let places = max(0, min(decimals, 12))
        // printf rounds correctly and is not affected by the process locale (Swift never calls setlocale).
        var text = String(format: "%.\(places)f", value)
        var negative = false
        if text.hasPrefix("-") {
            negative = true
            text.removeFirst()
        }
        let parts = text.split(separator: ".", maxSplits: 1)
        let integer = group(parts[0])
        let fraction = parts.count > 1 ? "." + parts[1] : ""
        let body = integer + fraction
        if negative && body.contains(where: { $0 != "0" && $0 != "." && $0 != "," }) {
            return "-" + body
        }
        return body
    }

    /// Like `grouped`, with an explicit `+` on positive values: `+1,076,000`, `-3,000`, `0`.
    public static func signed(_ value: Double, decimals: Int) -> String {
        let text = grouped(value, decimals: decimals)
        let isZero = !text.contains(where: { $0 >= "1" && $0 <= "9" })
        if isZero { return grouped(0, decimals: decimals) }
        return text.hasPrefix("-") ? text : "+" + text
    }

    private static func group(_ digits: Substring) -> String {
        let chars = Array(digits)
        var out = ""
        out.reserveCapacity(chars.count + chars.count / 3)
        for (index, char) in chars.enumerated() {
            if index > 0 && (chars.count - index) % 3 == 0 { out.append(",") }
            out.append(char)
        }
        return out
    }
}
