import Foundation
import SiseCore

/// `c`: the cross-exchange board — a coin's KRW price on each exchange, the dearest in the
/// rise colour, the cheapest in the fall colour, stale venues dimmed, widest gap first.
struct CompareView {
    let language: Language
    let rows: [CompareRow]

    func draw(_ frame: inout ScreenFrame) {
        frame.put(UIText.tuiCompareTitle(language), row: 1, column: 2, style: CellStyle(bold: true))
        let f = MarketFormatter(language: language)
        let nameWidth = 16
        let priceWidth = 16
        var x = 2
        x = frame.put(UIText.coin(language), row: 2, column: x, width: nameWidth, style: CellStyle(foreground: .gray)) + 1
        for exchange in Exchange.allCases {
            x = frame.put(exchange.displayName, row: 2, column: x, width: priceWidth, alignment: .right, style: CellStyle(foreground: .gray)) + 1
        }
        frame.put(UIText.gap(language), row: 2, column: x, width: 9, alignment: .right, style: CellStyle(foreground: .gray))
        guard !rows.isEmpty else {
            frame.put(UIText.compareEmpty(language), row: 4, column: 2, style: CellStyle(dim: true))
            return
        }
        for (i, row) in rows.enumerated() where 3 + i < frame.height - 1 {
            let y = 3 + i
            var x = frame.put(row.name(in: language) + " " + row.symbol, row: y, column: 2, width: nameWidth) + 1
            for exchange in Exchange.allCases {
                let text = row.prices[exchange].map { f.price($0, quote: "KRW") } ?? "-"
                let tone: Tone? = row.stale.contains(exchange) ? .stale : row.high == exchange ? .rise : row.low == exchange ? .fall : nil
                let style = tone.map { CellStyle(foreground: CellStyle.color($0), dim: $0 == .stale) } ?? CellStyle()
                x = frame.put(text, row: y, column: x, width: priceWidth, alignment: .right, style: style) + 1
            }
            frame.put(row.gap.map(f.percent) ?? "-", row: y, column: x, width: 9, alignment: .right)
        }
    }
}
