import SiseCore
import SiseEngine

extension TUIApp {
    /// The portfolio's tax line: this tax year's preview at the boards' prices now (from the
    /// instant on, the recorded deemed prices, filled from candles where none was recorded), or
    /// the words that say why there is none.
    static func taxLine(
        _ transactions: [PortfolioTransaction],
        boards: ExchangeBoards,
        deemed: DeemedPriceFill?,
        now: Int64,
        language: Language
    ) async -> String {
        let tickers = await boards.krwTickers()
        do {
            let recorded = try await deemed?.prices(of: Set(transactions.map(\.market.base)), tickers: tickers, now: now) ?? [:]
            let desk = TaxDesk(year: TaxPreview.currentYear(now: now), language: language)
            return try desk.preview(transactions, now: now, tickers: tickers, recorded: recorded).summary(language)
        } catch let error as TaxYearError {
            return error.message(language)
        } catch {
            return UIText.storeFailed(language, ["reason": "tax"])
        }
    }
}
