import Foundation
import SiseCore

/// `m`: the premium matrix — each KRW coin's premium on every Korean exchange against one global
/// venue (`V` cycles Binance, OKX, Bybit), at the rate in the title; a cell without a figure
/// shows the server's mark (`…` stale, `?` another coin under the ticker, `-` not listed).
struct MatrixView {
    let language: Language
    let venue: GlobalVenue
    let rows: [PremiumMatrix.Row]
    /// `환율 하나은행 고시 1,394.5`, and a stand-in named.
    let rate: String

    func draw(_ frame: inout ScreenFrame) {
        let title = UIText.premiumMatrix(language) + " · " + UIText.globalVenue(language) + " " + venue.displayName + " · " + rate
        frame.put(title, row: 1, column: 2, width: frame.width - 4, style: CellStyle(bold: true))
        let f = MarketFormatter(language: language)
        let nameWidth = 18
        let cellWidth = 10
        var x = frame.put(UIText.coin(language), row: 2, column: 2, width: nameWidth, style: CellStyle(foreground: .gray)) + 1
        for exchange in Exchange.allCases {
            x = frame.put(exchange.displayName, row: 2, column: x, width: cellWidth, alignment: .right, style: CellStyle(foreground: .gray)) + 1
        }
        guard !rows.isEmpty else {
            frame.put(UIText.empty(language), row: 4, column: 2, style: CellStyle(dim: true))
            return
        }
        for (i, row) in rows.enumerated() where 3 + i < frame.height - 1 {
            let y = 3 + i
            var x = frame.put(row.symbol, row: y, column: 2, width: nameWidth) + 1
            for exchange in Exchange.allCases {
                let cell = row.cell(exchange, venue)
                let text = cell.premium.map(f.rate) ?? PremiumMatrixTable.mark(cell.state)
                let style =
                    cell.premium.map { CellStyle(foreground: CellStyle.color(PriceChange(signed: $0).tone)) }
                    ?? CellStyle(foreground: .gray, dim: true)
                x = frame.put(text, row: y, column: x, width: cellWidth, alignment: .right, style: style) + 1
            }
        }
    }
}
