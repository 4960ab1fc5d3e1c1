import Foundation

/// Fitting text into terminal columns using `DisplayWidth`, so Hangul names line up.
public enum TextColumns {
    public enum Alignment: Sendable { case left, right }

    /// `text` cut to at most `width` columns (ending in `…` when cut) and padded with spaces
    /// to exactly `width` columns.
    public static func fit(_ text: String, width: Int, alignment: Alignment = .left) -> String {
        let cut = truncate(text, to: width)
        let pad = String(repeating: " ", count: max(0, width - DisplayWidth.of(cut)))
        return alignment == .left ? cut + pad : pad + cut
    }

    /// `text` shortened to at most `width` columns, with `…` when anything was dropped. A wide
    /// character that would straddle the edge is dropped whole.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var out = ""
        var used = 0
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }
}
