import Foundation
import SiseCharts
import SiseCore

/// Enter on a row: the market's price statistics (the chart joins once SiseCharts exists).
struct DetailView {
    let state: TUIState
    let row: MarketRow?
    /// The time the frame is drawn at (the app's clock).
    let now: Int64
    private var language: Language { state.language }

    /// The coin's 입출금 현황 on this exchange in one line: what is shut, or open (with its
    /// networks), or what the exchange cannot say (key needed, not published, stale).
    func walletLine(_ report: WalletReport, _ row: MarketRow) -> String {
        let note = WalletsTable.message(report, language, now: now)
        // Stale wallets are still shown, their age said beside them.
        guard report.state == .live || (report.state == .failing && !report.wallets.isEmpty) else { return note ?? "-" }
        let networks = report.wallets(of: row.id.base)
        guard let summary = WalletSummary(networks) else { return UIText.walletNone(language, ["exchange": report.exchange.displayName]) }
        let text = (summary.mark(language) ?? UIText.walletOpen(language)) + " (" + networks.map(\.network).joined(separator: ", ") + ")"
        return note.map { text + " · " + $0 } ?? text
    }

    func draw(_ frame: inout ScreenFrame) {
        guard let row else {
            frame.put(UIText.nothingSelected(language), row: 2, column: 2)
            return
        }
        let f = MarketFormatter(language: state.language)
        let t = row.ticker
        let quote = row.id.quote
        let d = f.display(row)
        let tone = CellStyle.color(t.change.tone)
        frame.put("\(row.market.name(in: state.language)) \(row.market.symbol)/\(quote)", row: 2, column: 2, style: CellStyle(bold: true))
        frame.put(d.price, row: 3, column: 2, style: CellStyle(foreground: tone, bold: true))
        frame.put("\(d.changeRate)  \(d.changePrice)", row: 3, column: 4 + DisplayWidth.of(d.price), style: CellStyle(foreground: tone))
        var shown = row
        if let year = state.chart?.year, state.chart?.market == row.id { shown.ticker = year.filling(row.ticker) }
        var lines = MarketFigures(shown, formatter: f).lines(language)
        if row.market.warning { lines.append((UIText.warningLong(language), UIText.investmentWarning(language))) }
        if let caution = row.market.cautionLine(language) { lines.append((UIText.cautionLong(language), caution)) }
        if let wallets = state.wallets, wallets.exchange == state.exchange { lines.append((UIText.walletsTitle(language), walletLine(wallets, row))) }
        for (i, (label, value)) in lines.enumerated() where 5 + i < frame.height - 2 {
            frame.put(label, row: 5 + i, column: 2, width: 16, style: CellStyle(foreground: .gray))
            frame.put(value, row: 5 + i, column: 19, width: max(0, frame.width - 21))
        }
        // The week's chart (or the hourly candles, `v`; the book `o`; the tape `t`) beside the
        // statistics when there is room, below them otherwise.
        if let mode = state.depth {
            let beside = frame.width >= 110
            DepthView(language: language, mode: mode, load: state.depthLoad?.market == row.id ? state.depthLoad : nil)
                .draw(&frame, top: beside ? 5 : 6 + lines.count, left: beside ? 50 : 2)
        } else if state.detailCandles, let loaded = state.candles, loaded.market == row.id, !loaded.candles.isEmpty {
            let beside = frame.width >= 110
            let top = beside ? 5 : 6 + lines.count
            let left = beside ? 50 : 2
            let rows = max(3, min(14, frame.height - top - 4))
            let columns = max(10, min(80, frame.width - left - 2))
            // The newest candle follows the live price between two loads.
            let live = CandleSeries.withLive(loaded.candles, price: t.price, at: now, interval: .h1)
            let grid = CandleChart.blocks(CandleSeries(candles: live), columns: columns, rows: rows)
            frame.put(UIText.chartCandles(language) + " 1h · MA20 ·", row: top - 1, column: left, style: CellStyle(foreground: .gray))
            for (i, line) in grid.enumerated() where top + i < frame.height - 2 {
                for (x, cell) in line.enumerated() where cell.character != " " {
                    frame.put(
                        String(cell.character),
                        row: top + i,
                        column: left + x,
                        style: CellStyle(foreground: cell.tone.map(CellStyle.color) ?? .yellow)
                    )
                }
            }
        } else if let chart = state.chart, chart.market == row.id, chart.points.count >= 2 {
            let model = ChartModel(points: chart.points, range: .week, quote: quote)
            let beside = frame.width >= 110
            let top = beside ? 5 : 6 + lines.count
            let left = beside ? 50 : 2
            let rows = max(3, min(12, frame.height - top - 4))
            let columns = max(10, min(60, frame.width - left - 16))
            let tone: CellStyle.Color = model.isRising ? .red : .blue
            for (i, line) in BrailleChart.render(model, columns: columns, rows: rows, language: state.language).enumerated()
            where top + i < frame.height - 2 {
                frame.put(line, row: top + i, column: left, style: CellStyle(foreground: i < rows ? tone : .gray))
            }
        }
        frame.put(
            UIText.tuiBack(language) + "  " + UIText.tuiChartToggle(language) + "  " + UIText.tuiDepthToggle(language),
            row: frame.height - 2,
            column: 2,
            style: CellStyle(dim: true)
        )
    }
}

/// `?`: the keys.
struct HelpView {
    let language: Language

    func draw(_ frame: inout ScreenFrame) {
        let lines = [UIText.tuiHelp1, .tuiHelp2, .tuiHelp3, .tuiHelp4, .tuiHelp5].map { $0(language) }
        for (i, line) in lines.enumerated() { frame.put(line, row: 2 + i, column: 2) }
    }
}

/// `t`: CoinGecko's trending coins, with KRW prices.
struct TrendingView {
    let language: Language
    let trending: Trending?

    func draw(_ frame: inout ScreenFrame) {
        frame.put(
            UIText.tuiTrendingTitle(language),
            row: 1,
            column: 2,
            style: CellStyle(bold: true)
        )
        guard let trending else {
            frame.put(UIText.loading(language), row: 3, column: 2, style: CellStyle(dim: true))
            return
        }
        let f = MarketFormatter(language: language)
        for (i, coin) in trending.coins.enumerated() where 3 + i < frame.height - 1 {
            let tone = CellStyle.color(PriceChange(signed: coin.change24h ?? 0).tone)
            frame.put("\(coin.rank)", row: 3 + i, column: 2, width: 4)
            frame.put("\(coin.name) \(coin.symbol)", row: 3 + i, column: 6, width: 30)
            frame.put(coin.priceKRW.map { f.price($0, quote: "KRW") } ?? "-", row: 3 + i, column: 37, width: 16, alignment: .right)
            frame.put(
                coin.change24h.map { f.rate($0 / 100) } ?? "-",
                row: 3 + i,
                column: 54,
                width: 9,
                alignment: .right,
                style: CellStyle(foreground: tone)
            )
        }
    }
}
