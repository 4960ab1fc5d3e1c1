import SiseCore

/// The exchange accounts under the terminal's portfolio: a title, one line an exchange that
/// could not be read (what to fix), the holdings as the CLI's table lays them out (P&L in the
/// rise/fall colours) and the total — as many lines as the screen has room for.
struct AccountLinesView {
    let language: Language
    let holdings: AccountHoldings

    func draw(_ frame: inout ScreenFrame, from top: Int) {
        let text = AccountHoldingsText(language: language)
        var y = top
        let last = frame.height - 2
        guard y <= last else { return }
        frame.put(AccountText.holdingsTitle(language), row: y, column: 2, style: CellStyle(bold: true))
        y += 1
        for source in holdings.sources where source.state != .live && y <= last {
            frame.put(text.source(source), row: y, column: 2, style: CellStyle(foreground: .yellow))
            y += 1
        }
        let lines = [PortfolioText.Line(cells: text.header, tone: .even, allocation: nil)] + text.lines(holdings)
        var widths = text.header.map { _ in 0 }
        for line in lines { for (i, cell) in line.cells.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(cell)) } }
        for (index, line) in lines.enumerated() where y <= last - 1 && (index > 0 || lines.count > 1) {
            var x = 2
            for (i, cell) in line.cells.enumerated() where i < widths.count && x < frame.width {
                let tone = i == widths.count - 1 ? CellStyle(foreground: CellStyle.color(line.tone)) : CellStyle()
                let style = index == 0 ? CellStyle(foreground: .gray) : tone
                let alignment: TextColumns.Alignment = i < AccountHoldingsText.numericFrom ? .left : .right
                x = frame.put(cell, row: y, column: x, width: widths[i], alignment: alignment, style: style) + 1
            }
            y += 1
        }
        if y <= last { frame.put(text.total(holdings), row: y, column: 2, style: CellStyle(bold: true)) }
    }
}
