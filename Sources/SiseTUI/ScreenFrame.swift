import Foundation
import SiseCore

/// One frame of the terminal as a value: rows of cells that know their width. A wide
/// character (Hangul, CJK) fills its cell and marks the next one as its continuation, so
/// columns line up by construction and frames can be compared cell by cell.
public struct ScreenFrame: Equatable, Sendable {
    public struct Cell: Equatable, Sendable {
        /// Empty for the right half of a wide character.
        public var text: String
        public var style: CellStyle
        public var isContinuation: Bool { text.isEmpty }

        public static let blank = Cell(text: " ", style: .plain)
    }

    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes `text` at (row, column), clipped to the frame; returns the column after it.
    /// A wide character that would not fit whole is replaced by a space.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = .plain) -> Int {
        guard row >= 0, row < height else { return column }
        var x = column
        if DisplayWidth.isPrintableASCII(text) {
            for byte in text.utf8 {
                if x >= 0, x < width { cells[row * width + x] = Cell(text: Self.asciiCells[Int(byte - 0x20)], style: style) }
                x += 1
            }
            return x
        }
        for character in text {
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            guard x >= 0, x < width else {
                x += w
                continue
            }
            if w == 2 && x + 1 >= width {
                cells[row * width + x] = Cell(text: " ", style: style)
                return width
            }
            cells[row * width + x] = Cell(text: String(character), style: style)
            if w == 2 { cells[row * width + x + 1] = Cell(text: "", style: style) }
            x += w
        }
        return x
    }

    /// One string per printable ASCII character, made once (most of a board is digits).
    private static let asciiCells: [String] = (0x20..<0x7F).map { String(Character(Unicode.Scalar(UInt8($0)))) }

    /// `text` fitted into `width` columns (truncated with …, padded), left or right aligned.
    @discardableResult
    public mutating func put(
        _ text: String,
        row: Int,
        column: Int,
        width: Int,
        alignment: TextColumns.Alignment = .left,
        style: CellStyle = .plain
    ) -> Int {
        put(TextColumns.fit(text, width: width, alignment: alignment), row: row, column: column, style: style)
    }

    /// Paints the style of a whole row (selection bars).
    public mutating func style(row: Int, _ change: (inout CellStyle) -> Void) {
        guard row >= 0, row < height else { return }
        for x in 0..<width { change(&cells[row * width + x].style) }
    }

    /// A row as plain text (continuations dropped): what a test or `capture-pane` sees.
    public func line(_ row: Int) -> String {
        (0..<width).map { self[row, $0].text }.joined()
    }

    public var text: String { (0..<height).map(line).joined(separator: "\n") }
}
