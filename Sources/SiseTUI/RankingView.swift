import Foundation
import SiseCore

/// What the ranking screen is handed by its loader: the coins of the pages asked for, the
/// global market, and why the figures are old when they are.
public struct RankingLoad: Sendable {
    public var coins: [RankedCoin]
    public var global: GlobalMarket?
    public var staleNote: String?

    public init(coins: [RankedCoin], global: GlobalMarket?, staleNote: String?) {
        self.coins = coins
        self.global = global
        self.staleNote = staleNote
    }
}

/// The ranking screen (`r`): the global market on one line, then rank, name, price, 1h / 24h /
/// 7d changes (rising red, falling blue), market cap and volume — columns by display width.
struct RankingView {
    let state: TUIState
    let page: RankingPage?

    func draw(_ frame: inout ScreenFrame) {
        let l = state.language
        frame.put(
            UIText.tuiRankingTitle(l) + " · " + UIText.pageNumber(l, ["page": String(state.ranking.request.page)])
                + " · " + state.ranking.request.currency.rawValue.uppercased(),
            row: 1,
            column: 1,
            style: CellStyle(bold: true)
        )
        if let global = state.ranking.global {
            let view = GlobalMarketJSON(global, currency: state.ranking.request.currency, language: l)
            let d = view.display
            var x = frame.put(UIText.totalMarketCap(l) + " " + (d["totalMarketCap"] ?? "-") + " ", row: 2, column: 1)
            x = frame.put(
                d["marketCapChange24h"] ?? "-",
                row: 2,
                column: x,
                style: CellStyle(foreground: CellStyle.color(Tone(rawValue: d["tone"] ?? "") ?? .even))
            )
            frame.put(
                " · " + UIText.btcDominance(l) + " " + (d["btcDominance"] ?? "-") + " · " + UIText.ethDominance(l) + " "
                    + (d["ethDominance"] ?? "-"),
                row: 2,
                column: x
            )
        }
        var top = 3
        if state.searching || !state.ranking.request.search.isEmpty {
            frame.put(
                UIText.searchPrompt(l) + state.ranking.request.search + (state.searching ? "▏" : ""),
                row: top,
                column: 1,
                style: CellStyle(foreground: .yellow)
            )
            top += 1
        }
        if let note = state.ranking.staleNote {
            frame.put(note, row: top, column: 1, width: frame.width - 2, style: CellStyle(foreground: .yellow))
            top += 1
        }
        guard let page else {
            frame.put(UIText.loading(l), row: top + 1, column: 2, style: CellStyle(dim: true))
            return
        }
        let wide = frame.width >= 96
        let name = max(10, frame.width - 5 - 2 - 15 - 9 * 3 - (wide ? 24 : 0) - 2)
        let keys: [(RankingSortKey, String, Int)] =
            [
                (.price, UIText.price(l), 15), (.change1h, UIText.change1h(l), 9),
                (.change24h, UIText.change24h(l), 9), (.change7d, UIText.change7d(l), 9),
            ]
            + (wide ? [(.marketCap, UIText.marketCap(l), 12), (.volume, UIText.volume24h(l), 12)] : [])
        func arrow(_ key: RankingSortKey) -> String {
            switch page.sort.direction(of: key) {
            case .descending: "▼"
            case .ascending: "▲"
            case .none: ""
            }
        }
        var x = frame.put(UIText.rank(l) + arrow(.rank), row: top, column: 0, width: 5, style: CellStyle(dim: true))
        x = frame.put(UIText.coin(l), row: top, column: x + 2, width: name, style: CellStyle(dim: true))
        for (key, title, width) in keys {
            x = frame.put(title + arrow(key), row: top, column: x, width: width, alignment: .right, style: CellStyle(dim: true))
        }
        if page.rows.isEmpty { frame.put(UIText.rankingEmpty(l), row: top + 1, column: 2, style: CellStyle(dim: true)) }
        let visible = max(1, frame.height - top - 2)
        for (offset, row) in page.rows.enumerated().dropFirst(state.scroll).prefix(visible) {
            let y = top + 1 + offset - state.scroll
            let selected = offset == state.selected
            let base = CellStyle(reverse: selected)
            let d = row.display
            var x = frame.put(row.coin.rank.map(String.init) ?? "-", row: y, column: 0, width: 5, alignment: .right, style: base)
            x = frame.put(row.favorite ? "★" : " ", row: y, column: x + 1, width: 1, style: CellStyle(foreground: .yellow, reverse: selected))
            x = frame.put(row.shownName(l) + " " + row.coin.symbol, row: y, column: x + 1, width: name, style: base)
            let cells: [(String, String?)] =
                [(d.price, nil), (d.changeRate1h, d.tone1h), (d.changeRate24h, d.tone24h), (d.changeRate7d, d.tone7d)]
                + (wide ? [(d.marketCap, nil), (d.volume24h, nil)] : [])
            for ((text, tone), (_, _, width)) in zip(cells, keys) {
                let color = tone.flatMap(Tone.init(rawValue:)).map(CellStyle.color)
                x = frame.put(
                    text,
                    row: y,
                    column: x,
                    width: width,
                    alignment: .right,
                    style: CellStyle(foreground: color ?? .none, reverse: selected)
                )
            }
        }
    }
}
