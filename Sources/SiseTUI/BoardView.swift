import Foundation
import SiseCore

/// The board table: name, price, change rate, change amount, trade value — columns sized by
/// display width so Hangul names line up; rising red, falling blue; fresh prices highlighted.
struct BoardView {
    let state: TUIState
    let rows: [MarketRow]
    let now: Int64

    /// Column widths for a terminal `width` columns wide: the name takes what is left.
    /// - Parameter premium: a KRW board shows the 김프 column (when there is room).
    static func columns(width: Int, premium: Bool = false) -> (star: Int, name: Int, price: Int, rate: Int, amount: Int, value: Int, premium: Int) {
        let price = 15
        let rate = 9
        let value = width >= 100 ? 14 : 12
        let amount = width >= 90 ? 13 : 0
        let premiumWidth = premium && width >= 60 ? 8 : 0
        let name = max(8, width - 2 - price - rate - amount - value - premiumWidth - 4 - (premiumWidth > 0 ? 1 : 0))
        return (2, min(name, 40), price, rate, amount, value, premiumWidth)
    }

    func draw(_ frame: inout ScreenFrame) {
        let c = Self.columns(width: frame.width, premium: state.quote == .krw)
        let top = state.searching || !state.search.isEmpty ? 2 : 1
        if top == 2 {
            let prompt = UIText.searchPrompt(state.language) + state.search + (state.searching ? "▏" : "")
            frame.put(prompt, row: 1, column: 0, width: frame.width, style: CellStyle(foreground: .yellow))
        }
        var x = 0
        let text = BoardText(language: state.language)
        let titles = [BoardText.Column.name, .price, .change, .changePrice, .premium, .value].map(text.title)
        let keys: [SortKey?] = [.name, .price, .change, nil, .premium, .value]
        let widths = [c.name, c.price, c.rate, c.amount, c.premium, c.value]
        x = c.star
        for (i, title) in titles.enumerated() where widths[i] > 0 {
            var label = title
            if let key = keys[i] {
                switch state.sort.direction(of: key) {
                case .descending: label += "▼"
                case .ascending: label += "▲"
                case .none: break
                }
            }
            frame.put(
                label,
                row: top,
                column: x,
                width: widths[i],
                alignment: i == 0 ? .left : .right,
                style: CellStyle(foreground: .gray, bold: true)
            )
            x += widths[i] + 1
        }
        let first = top + 1
        let visible = max(0, frame.height - first - 1)
        if rows.isEmpty {
            let empty =
                state.favoritesOnly && state.search.isEmpty
                ? UIText.emptyFavoritesTUI(state.language)
                : UIText.empty(state.language)
            frame.put(empty, row: first + 1, column: 2, style: CellStyle(dim: true))
            return
        }
        let formatter = MarketFormatter(language: state.language)
        for (offset, row) in rows.dropFirst(state.scroll).prefix(visible).enumerated() {
            let y = first + offset
            let premium = state.premium.premium(row)
            let d = formatter.display(row, premium: premium)
            let tone = CellStyle.color(row.ticker.change.tone)
            let selected = state.scroll + offset == state.selected
            let star = state.favorites.contains(row.id) ? "★" : " "
            frame.put(star, row: y, column: 0, style: CellStyle(foreground: .yellow))
            var name = row.market.name(in: state.language)
            name = BoardText(language: state.language).markPrefix(row.market) + name
            frame.put(name + " " + row.market.symbol, row: y, column: c.star, width: c.name)
            var priceStyle = CellStyle(foreground: tone)
            if let flash = state.flashes[row.id], flash.until > now {
                priceStyle = CellStyle(foreground: .white, background: CellStyle.color(flash.tone), bold: true)
            }
            if let until = state.alerted[row.id], until > now {
                // An alert on this market just fired: the whole name stands out until it fades.
                frame.put(
                    name + " " + row.market.symbol,
                    row: y,
                    column: c.star,
                    width: c.name,
                    style: CellStyle(foreground: .none, background: .yellow, bold: true)
                )
            }
            var col = c.star + c.name + 1
            frame.put(d.price, row: y, column: col, width: c.price, alignment: .right, style: priceStyle)
            col += c.price + 1
            frame.put(d.changeRate, row: y, column: col, width: c.rate, alignment: .right, style: CellStyle(foreground: tone))
            col += c.rate + 1
            if c.amount > 0 {
                frame.put(d.changePrice, row: y, column: col, width: c.amount, alignment: .right, style: CellStyle(foreground: tone))
                col += c.amount + 1
            }
            if c.premium > 0 {
                frame.put(
                    d.premium,
                    row: y,
                    column: col,
                    width: c.premium,
                    alignment: .right,
                    style: CellStyle(foreground: CellStyle.color(PriceChange(signed: premium ?? 0).tone))
                )
                col += c.premium + 1
            }
            frame.put(d.tradeValue, row: y, column: col, width: c.value, alignment: .right)
            if selected { frame.style(row: y) { $0.reverse = true } }
        }
    }
}
