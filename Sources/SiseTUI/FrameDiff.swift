import Foundation

/// Turns the difference between two frames into terminal output: only changed cells are
/// written, with the fewest cursor moves and style changes it can manage simply.
public enum FrameDiff {
    public static func render(from old: ScreenFrame?, to new: ScreenFrame) -> String {
        var out = ""
        let full = old == nil || old!.width != new.width || old!.height != new.height
        if full { out += "\u{1B}[0m\u{1B}[2J" }
        var currentStyle: CellStyle?
        var cursor: (row: Int, column: Int)? = nil
        for row in 0..<new.height {
            var column = 0
            while column < new.width {
                let cell = new[row, column]
                let unchanged = !full && old![row, column] == cell
                if unchanged || cell.isContinuation {
                    column += 1
                    continue
                }
                if cursor == nil || cursor! != (row, column) {
                    out += "\u{1B}[\(row + 1);\(column + 1)H"
                }
                if currentStyle != cell.style {
                    out += cell.style.sgr
                    currentStyle = cell.style
                }
                out += cell.text
                let advance = column + 1 < new.width && new[row, column + 1].isContinuation ? 2 : 1
                // A wide character changed: its right half must not be skipped next time.
                column += advance
                cursor = (row, column)
            }
        }
        if currentStyle != nil { out += "\u{1B}[0m" }
        return out
    }
}
