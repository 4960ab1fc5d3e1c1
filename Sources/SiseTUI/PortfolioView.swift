import Foundation
import SiseCore

/// `p`: the terminal's portfolio at live prices — the CLI's columns (`PortfolioText`), P&L in
/// the rise/fall colours, stale prices dimmed and marked `*`, and an allocation bar per row —
/// and below it what the connected exchange accounts hold (`AccountHoldingsText`).
struct PortfolioView {
    let language: Language
    let report: PortfolioReport?
    /// The tax year's preview in one line (nil: still being worked out).
    let tax: String?
    /// The exchange accounts' holdings (nil: no key connected, or not read yet).
    var accounts: AccountHoldings? = nil

    func draw(_ frame: inout ScreenFrame) {
        frame.put(UIText.tuiPortfolioTitle(language) + " · " + UIText.tuiPortfolioHints(language), row: 1, column: 2, style: CellStyle(bold: true))
        let next = transactions(&frame)
        if let accounts { AccountLinesView(language: language, holdings: accounts).draw(&frame, from: next + 1) }
    }

    /// The typed transactions' table, its realized line and the tax line; the row after them.
    private func transactions(_ frame: inout ScreenFrame) -> Int {
        let text = PortfolioText(language: language)
        guard let report else {
            frame.put(UIText.loading(language), row: 3, column: 2, style: CellStyle(dim: true))
            return 4
        }
        let lines = text.lines(report)
        guard !lines.isEmpty else {
            frame.put(UIText.portfolioEmpty(language), row: 3, column: 2, style: CellStyle(dim: true))
            return 4
        }
        let all = [PortfolioText.Line(cells: text.header, tone: .even, allocation: nil)] + lines + [text.total(report)]
        var widths = text.header.map { _ in 0 }
        for line in all { for (i, cell) in line.cells.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(cell)) } }
        let barWidth = 12
        for (index, line) in all.enumerated() where 2 + index < frame.height - 2 {
            let y = 2 + index
            var x = 2
            let header = index == 0
            for (i, cell) in line.cells.enumerated() where i < widths.count && x < frame.width {
                let style: CellStyle =
                    header
                    ? CellStyle(foreground: .gray)
                    : i >= 6 || line.tone == .stale ? CellStyle(foreground: CellStyle.color(line.tone), dim: line.tone == .stale) : CellStyle()
                x = frame.put(cell, row: y, column: x, width: widths[i], alignment: i < PortfolioText.numericFrom ? .left : .right, style: style) + 1
            }
            if let share = line.allocation, x + barWidth < frame.width {
                let filled = Int((share * Double(barWidth)).rounded())
                frame.put(
                    String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled),
                    row: y,
                    column: x + 1,
                    style: CellStyle(foreground: .cyan)
                )
                frame.put(String(format: "%.0f%%", share * 100), row: y, column: x + 2 + barWidth)
            }
        }
        let y = min(frame.height - 2, 3 + all.count)
        frame.put(text.realized(report), row: y, column: 2, style: CellStyle(dim: true))
        let style = CellStyle(bold: tax != nil, dim: tax == nil)
        let taxLines = Self.wrap(tax ?? TaxText.taxLoading(language), width: frame.width - 4)
        for (index, line) in taxLines.enumerated() where y + 1 + index < frame.height - 1 {
            frame.put(line, row: y + 1 + index, column: 2, style: style)
        }
        return y + 1 + taxLines.count
    }

    /// A line of `a · b · c` parts in lines of at most `width` columns, broken between parts (a
    /// figure is never cut in two).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        for part in text.components(separatedBy: " · ") {
            if let last = lines.last, DisplayWidth.of(last) + 3 + DisplayWidth.of(part) <= width {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines.append(part)
            }
        }
        return lines
    }
}
