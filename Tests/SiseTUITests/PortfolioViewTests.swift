import Foundation
import SiseCore
import SiseEngine
import Testing

@testable import SiseTUI

/// `p`: the portfolio screen and the alert highlight, drawn into in-memory frames.
@Suite struct PortfolioViewTests {
    @Test func pOpensThePortfolioWithLiveFiguresBarsAndStaleMarks() throws {
        var state = TUIState(language: .en)
        let rows = TUIRenderingTests.rows
        #expect(TUIController().handle(.character("p"), state: &state, rows: rows, page: 10) == .loadPortfolio)
        #expect(state.screen == .portfolio)
        let btc = MarketID("KRW-BTC")!
        let eth = MarketID("KRW-ETH")!
        let positions = try PortfolioLedger.positions([
            PortfolioTransaction(id: "1", kind: .buy, exchange: .upbit, market: btc, quantity: Decimal(string: "0.5")!, price: 100_000_000, at: 1),
            PortfolioTransaction(id: "2", kind: .buy, exchange: .upbit, market: eth, quantity: 2, price: 3_000_000, at: 2),
        ])
        state.portfolio = PortfolioReport(positions: positions) { _, market in
            market == btc ? PortfolioReport.Quote(price: 103_493_000, live: true) : PortfolioReport.Quote(price: 3_050_000, live: false)
        }
        let frame = TUIRenderer().render(state, snapshot: TUIRenderingTests.snapshot, rows: rows, width: 120, height: 20, now: 0)
        let lines = (0..<20).map(frame.line)
        let btcLine = try #require(lines.first { $0.contains("KRW-BTC") })
        #expect(btcLine.contains("+1,746,500") && btcLine.contains("+3.49%") && btcLine.contains("█"))
        let ethLine = try #require(lines.first { $0.contains("KRW-ETH") })
        #expect(ethLine.contains("3,050,000*"), "a price that is not live is marked")
        #expect(lines.contains { $0.contains("Total") })
        #expect(lines.contains { $0.contains("Realized P&L") })
        #expect(TUIController().handle(.character("p"), state: &state, rows: rows, page: 10) == .none)
        #expect(state.screen == .board)
    }

    @Test func theTaxLineBreaksBetweenItsPartsNeverInsideAFigure() {
        let line = "2027 세금 미리보기: 소득 12,345,678원 · 과세표준 9,845,678원 · 예상 세액 2,166,049원"
        #expect(PortfolioView.wrap(line, width: 200) == [line])
        #expect(PortfolioView.wrap(line, width: 60) == ["2027 세금 미리보기: 소득 12,345,678원 · 과세표준 9,845,678원", "예상 세액 2,166,049원"])
        #expect(PortfolioView.wrap(line, width: 10).count == 3, "a part wider than the screen stays whole on its own line")
    }

    @Test func aFiredAlertHighlightsItsRow() {
        var state = TUIState(language: .en)
        state.alerted[MarketID("KRW-ETH")!] = 10_000
        let rows = state.query.apply(TUIRenderingTests.rows)
        let frame = TUIRenderer().render(state, snapshot: TUIRenderingTests.snapshot, rows: rows, width: 100, height: 20, now: 0)
        let y = try! #require((0..<20).first { frame.line($0).contains("Ethereum") })
        let x = DisplayWidth.of(String(frame.line(y).prefix { $0 != "E" }))
        #expect(frame[y, x].style.background == .yellow)
        let later = TUIRenderer().render(state, snapshot: TUIRenderingTests.snapshot, rows: rows, width: 100, height: 20, now: 20_000)
        #expect(later[y, x].style.background != .yellow)
    }
}
