import Foundation

/// The exchange holdings as every text face lays them out (the CLI's table, the TUI's lines):
/// one line a currency, exact figures, the P&L's tone; a coin with no market says so.
public struct AccountHoldingsText: Sendable {
    public let language: Language

    public init(language: Language) {
        self.language = language
    }

    public var header: [String] {
        [
            AccountText.columnExchange, .columnCurrency, .columnQuantity, .columnAverage, .columnPrice, .columnValue, .columnProfit,
        ].map { $0(language) }
    }

    /// Columns from the quantity on are figures (right-aligned).
    public static let numericFrom = 2

    public func lines(_ holdings: AccountHoldings) -> [PortfolioText.Line] {
        holdings.holdings.map { row in
            let d = display(row)
            return PortfolioText.Line(
                cells: [row.exchange.displayName, d.name, d.quantity, d.average, d.price, d.value, d.profit],
                tone: d.tone,
                allocation: nil
            )
        }
    }

    /// One holding's texts: exact figures, `*` beside an edited average, "마켓 없음" for a coin
    /// the exchange lists no KRW market for, the P&L's tone.
    public func display(_ row: AccountHoldings.Holding) -> AccountHoldingsAnswer.RowDisplay {
        let l = language
        var average = row.averageBuyPrice.map { DecimalText.price($0, quote: row.unitCurrency) } ?? "-"
        if row.averageModified, row.averageBuyPrice != nil { average += " *" }
        let profit = row.profit.map { profit in
            DecimalText.signed(profit, places: 0) + (row.profitRate.map { " (" + NumberText.signed($0, decimals: 2) + "%)" } ?? "")
        }
        return AccountHoldingsAnswer.RowDisplay(
            name: row.currency == "KRW" ? AccountText.cash(l) : row.currency,
            quantity: HoldingText.quantity(row.quantity),
            locked: row.locked > 0 ? AccountText.locked(l, ["quantity": HoldingText.quantity(row.locked)]) : nil,
            average: average,
            price: row.price.map { DecimalText.price($0) } ?? (row.currency == "KRW" ? "-" : AccountText.noMarket(l)),
            value: row.value.map { DecimalText.grouped($0, places: 0) } ?? "-",
            profit: profit ?? "-",
            tone: row.profit.map { $0 > 0 ? .rise : $0 < 0 ? .fall : .even } ?? .even
        )
    }

    /// `총 평가금액 1,234,567원`.
    public func total(_ holdings: AccountHoldings) -> String {
        AccountText.totalValue(language, ["value": DecimalText.grouped(holdings.totalValue, places: 0)])
    }

    /// The footnote of an edited average, when a row has one.
    public func notes(_ holdings: AccountHoldings) -> [String] {
        holdings.holdings.contains { $0.averageModified && $0.averageBuyPrice != nil } ? ["* " + AccountText.averageModified(language)] : []
    }
}
