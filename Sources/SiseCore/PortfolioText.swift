import Foundation

/// The portfolio as text cells, for the CLI table and the TUI: the same columns and words on
/// both faces, the figures as the report formatted them.
public struct PortfolioText: Sendable {
    public let language: Language

    public init(language: Language) {
        self.language = language
    }

    public struct Line: Sendable, Equatable {
        public var cells: [String]
        /// The colour of the P&L (rise, fall, even; stale when the price is not live).
        public var tone: Tone
        /// The share of the portfolio's value (0…1), for bars.
        public var allocation: Double?

        public init(cells: [String], tone: Tone, allocation: Double?) {
            self.cells = cells
            self.tone = tone
            self.allocation = allocation
        }
    }

    /// Column titles: market, exchange, quantity, average price, price, value, P&L, return.
    public var header: [String] {
        [
            UIText.market(language), UIText.exchange(language), UIText.quantity(language), UIText.averagePrice(language),
            UIText.price(language), UIText.valuation(language), UIText.unrealizedPnl(language), UIText.returnRate(language),
        ]
    }

    /// Right-aligned columns (the numbers).
    public static let numericFrom = 2

    /// The held positions (stale prices marked `*`).
    public func lines(_ report: PortfolioReport) -> [Line] {
        report.positions.filter { PortfolioReport.number($0.quantity) ?? 0 > 0 }.map { row in
            let d = row.display
            return Line(
                cells: [
                    row.market, Exchange(rawValue: row.exchange)?.displayName ?? row.exchange, d.quantity, d.averagePrice,
                    d.price + (row.stale ? "*" : ""), d.value, d.unrealizedPnl, d.returnRate,
                ],
                tone: Tone(rawValue: d.tone) ?? .even,
                allocation: row.allocation
            )
        }
    }

    /// The totals line: invested, value, unrealised P&L, return.
    public func total(_ report: PortfolioReport) -> Line {
        let d = report.totals.display
        return Line(
            cells: [
                UIText.portfolioTotal(language), "", "", UIText.invested(language) + " " + d.invested, "",
                d.value + (report.totals.stale ? "*" : ""), d.unrealizedPnl, d.returnRate,
            ],
            tone: Tone(rawValue: d.tone) ?? .even,
            allocation: nil
        )
    }

    /// `실현손익 +12,000`: the realised P&L line under the table.
    public func realized(_ report: PortfolioReport) -> String {
        UIText.realizedPnl(language) + " " + report.totals.display.realizedPnl
    }
}
