import Foundation
import SiseCore
import SiseEngine

/// Draws a whole frame from the state and the latest board snapshot: a pure function, so the
/// layout is tested without a terminal.
public struct TUIRenderer: Sendable {
    public init() {}

    /// - Parameter compared: the cross-exchange rows, for the compare screen (`c`).
    public func render(
        _ state: TUIState,
        snapshot: BoardSnapshot,
        rows: [MarketRow],
        width: Int,
        height: Int,
        now: Int64,
        compared: [CompareRow] = [],
        ranking: RankingPage? = nil,
        matrix: (rows: [PremiumMatrix.Row], rate: String) = ([], "-")
    ) -> ScreenFrame {
        var frame = ScreenFrame(width: width, height: height)
        guard width >= 20, height >= 5 else {
            frame.put(UIText.tuiTooSmall(.ko) + " / " + UIText.tuiTooSmall(.en), row: 0, column: 0)
            return frame
        }
        header(&frame, state)
        switch state.screen {
        case .board: BoardView(state: state, rows: rows, now: now).draw(&frame)
        case .detail: DetailView(state: state, row: rows.indices.contains(state.selected) ? rows[state.selected] : nil, now: now).draw(&frame)
        case .help: HelpView(language: state.language).draw(&frame)
        case .trending: TrendingView(language: state.language, trending: state.trending).draw(&frame)
        case .compare: CompareView(language: state.language, rows: compared).draw(&frame)
        case .ranking: RankingView(state: state, page: ranking).draw(&frame)
        case .portfolio: PortfolioView(language: state.language, report: state.portfolio, tax: state.tax, accounts: state.accounts).draw(&frame)
        case .matrix: MatrixView(language: state.language, venue: state.matrixVenue, rows: matrix.rows, rate: matrix.rate).draw(&frame)
        }
        StatusBar(state: state, status: snapshot.status, now: now).draw(&frame)
        return frame
    }

    private func header(_ frame: inout ScreenFrame, _ state: TUIState) {
        frame.style(row: 0) { $0 = CellStyle(foreground: .white, background: .blue, bold: true) }
        var x = frame.put(" 시세 Sise ", row: 0, column: 0, style: CellStyle(foreground: .white, background: .blue, bold: true))
        if state.demo { x = frame.put(" DEMO ", row: 0, column: x, style: CellStyle(foreground: .none, background: .yellow, bold: true)) + 1 }
        x = frame.put(" \(state.exchange.displayName) ", row: 0, column: x, style: CellStyle(foreground: .white, background: .blue, bold: true))
        for quote in state.exchange.quotes {
            let active = quote == state.quote
            x = frame.put(
                " \(quote.rawValue) ",
                row: 0,
                column: x,
                style: CellStyle(foreground: .white, background: .blue, bold: active, reverse: active)
            )
        }
        let tab = " [" + (state.favoritesOnly ? UIText.tabFavorites(state.language) : UIText.tabExchange(state.language)) + "] "
        x = frame.put(tab, row: 0, column: x + 1, style: CellStyle(foreground: .white, background: .blue, bold: true))
        // 테더 김프 at the right end, where there is room.
        if state.quote == .krw, let tether = state.tether {
            let text = " " + UIText.tetherPremium(state.language) + " " + MarketFormatter(language: state.language).rate(tether) + " "
            let start = frame.width - DisplayWidth.of(text)
            if start > x + 1 {
                let color = CellStyle.onBar(PriceChange(signed: tether).tone)
                frame.put(text, row: 0, column: start, style: CellStyle(foreground: color, background: .blue, bold: true))
            }
        }
    }
}
