import Foundation
import SiseCore

/// A plain table for the CLI (portfolio, candles): columns sized by display width, numbers right-aligned, each
/// line painted by its tone.
struct TextTable {
    let header: [String]
    /// Columns from this index on are right-aligned.
    let numericFrom: Int
    let color: Bool

    func render(_ lines: [PortfolioText.Line]) -> [String] {
        var widths = header.map(DisplayWidth.of)
        for line in lines {
            for (i, cell) in line.cells.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        let title = format(header, widths: widths)
        return [Terminal.paint(title, .bold, enabled: color)]
            + lines.map { line in
                Terminal.paint(format(line.cells, widths: widths), Terminal.color(line.tone), enabled: color)
            }
    }

    private func format(_ cells: [String], widths: [Int]) -> String {
        zip(cells, widths).enumerated().map { i, pair in
            TextColumns.fit(pair.0, width: pair.1, alignment: i < numericFrom ? .left : .right)
        }.joined(separator: "  ")
    }
}
