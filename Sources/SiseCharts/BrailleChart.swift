import Foundation
import SiseCore

/// The chart for terminals: braille cells (2×4 dots each) draw the line, price labels on the
/// right, KST times below. Lines of plain text; width in columns of the plot area.
public enum BrailleChart {
    public static func render(_ model: ChartModel, columns: Int = 60, rows: Int = 12, language: Language = .ko) -> [String] {
        let dotsX = max(columns, 2) * 2
        let dotsY = max(rows, 2) * 4
        var grid = [[Bool]](repeating: [Bool](repeating: false, count: dotsX), count: dotsY)
        var previous: (Int, Int)?
        for point in model.points {
            let x = Int((model.x(point.time) * Double(dotsX - 1)).rounded())
            let y = Int(((1 - model.priceScale.fraction(point.price)) * Double(dotsY - 1)).rounded())
            if let (px, py) = previous {
                // Join consecutive points so the line has no gaps.
                let steps = max(abs(x - px), abs(y - py), 1)
                for s in 0...steps {
                    let ix = px + (x - px) * s / steps
                    let iy = py + (y - py) * s / steps
                    if (0..<dotsY).contains(iy) && (0..<dotsX).contains(ix) { grid[iy][ix] = true }
                }
            } else if (0..<dotsY).contains(y) && (0..<dotsX).contains(x) {
                grid[y][x] = true
            }
            previous = (x, y)
        }
        let labels = model.priceLabels(language: language)
        var lines: [String] = []
        for row in 0..<rows {
            var line = ""
            for column in 0..<columns {
                var bits: UInt32 = 0
                let offsets: [(Int, Int, UInt32)] = [
                    (0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08), (1, 1, 0x10),
                    (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80),
                ]
                for (dx, dy, bit) in offsets where grid[row * 4 + dy][column * 2 + dx] { bits |= bit }
                line.unicodeScalars.append(Unicode.Scalar(0x2800 + bits)!)
            }
            // A label on the row nearest each price tick.
            let label = labels.first { Int(((1 - model.priceScale.fraction($0.value)) * Double(rows - 1)).rounded()) == row }
            lines.append(line + (label.map { " " + $0.text } ?? ""))
        }
        var axis = [Character](repeating: " ", count: columns + 12)
        for (time, text) in model.timeLabels() {
            let at = min(max(0, Int(model.x(time) * Double(columns - 1)) - text.count / 2), columns + 12 - text.count)
            for (i, c) in text.enumerated() where at + i < axis.count { axis[at + i] = c }
        }
        lines.append(String(axis).trimmingCharacters(in: .whitespaces).isEmpty ? "" : String(axis))
        return lines
    }
}
