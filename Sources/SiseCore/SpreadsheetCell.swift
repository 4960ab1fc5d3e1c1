/// CSV cells a spreadsheet will not run (CSV injection): a cell beginning with `=`, `+`, `-`, `@`,
/// a tab or a carriage return is read as a formula by Excel, LibreOffice and Google Sheets, so it
/// is written with a leading `'` (shown by none of them). Reversible: a cell that already begins
/// with `'` before such a start gets one more, and reading takes exactly one off, so Sise's own
/// import reads its export back unchanged whatever the text.
public enum SpreadsheetCell {
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// The cell as written: safe to open in a spreadsheet.
    public static func escape(_ text: String) -> String {
        needsGuard(text[...]) ? "'" + text : text
    }

    /// The text of a cell as `escape` wrote it.
    public static func unescape(_ cell: String) -> String {
        cell.first == "'" && needsGuard(cell.dropFirst()) ? String(cell.dropFirst()) : cell
    }

    /// Begins with a formula start, possibly after apostrophes. A loop, not a recursion: the
    /// apostrophes are the sender's to choose, as many as a body holds.
    private static func needsGuard(_ text: Substring) -> Bool {
        for scalar in text.unicodeScalars where scalar != "'" {
            return formulaStarts.contains(scalar)
        }
        return false
    }
}
