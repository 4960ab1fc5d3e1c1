import Foundation
import SiseCore
import SiseStore

/// The tax preview from what a face has: the owner's transactions, the exchanges' KRW prices now,
/// and the deemed prices the store recorded. Before 2027-01-01 00:00 KST the deemed price is the
/// live average (as if the year ended now); from the instant on, the recorded one. Every face —
/// the API, `sise tax`, the page and the TUI — asks here, so each says the same.
public struct TaxDesk: Sendable {
    public var year: Int
    public var method: TaxMethod
    public var noCost: NoCostRule
    public var language: Language

    public init(year: Int, method: TaxMethod = .default, noCost: NoCostRule = .zero, language: Language) {
        self.year = year
        self.method = method
        self.noCost = noCost
        self.language = language
    }

    /// The deemed prices a preview uses at `now`.
    public static func deemed(now: Int64, tickers: [Exchange: [Ticker]], recorded: [String: DeemedPrice]) -> [String: DeemedPrice] {
        now < TaxRules.deemedInstant ? DeemedCandles.live(tickers) : recorded
    }

    public func preview(
        _ transactions: [PortfolioTransaction],
        now: Int64,
        tickers: [Exchange: [Ticker]],
        recorded: [String: DeemedPrice]
    ) throws(TaxYearError) -> TaxPreview {
        let deemed = Self.deemed(now: now, tickers: tickers, recorded: recorded)
        let live = year == TaxPreview.currentYear(now: now) ? Self.unitPrices(transactions, tickers) : nil
        return try TaxPreview(
            events: TaxEvent.from(transactions),
            .init(year: year, method: method, noCost: noCost, deemed: deemed, livePrice: live, now: now, language: language)
        )
    }

    /// The accountant's CSV of the same year.
    public func csv(
        _ transactions: [PortfolioTransaction],
        rows kind: TaxCSV.Rows,
        now: Int64,
        tickers: [Exchange: [Ticker]],
        recorded: [String: DeemedPrice]
    ) throws(TaxYearError) -> String {
        let preview = try preview(transactions, now: now, tickers: tickers, recorded: recorded)
        let deemed = Self.deemed(now: now, tickers: tickers, recorded: recorded)
        let rows = try TaxYear.coins(TaxEvent.from(transactions), year: year, method: method, noCost: noCost) { deemed[$0]?.average }
        return TaxCSV.encode(rows, preview: preview, deemed: deemed, kind: kind, language: language)
    }

    /// Per coin, the live price of a unit: the prices of the exchanges it is held on, weighted by
    /// what each holds; a coin held on none (all withdrawn) at the average of those listing it.
    static func unitPrices(_ transactions: [PortfolioTransaction], _ tickers: [Exchange: [Ticker]]) -> [String: Decimal] {
        var price: [Exchange: [String: Decimal]] = [:]
        for (exchange, list) in tickers {
            for ticker in list where ticker.market.quote == QuoteCurrency.krw.rawValue && ticker.price > 0 {
                price[exchange, default: [:]][ticker.market.base] = PortfolioLedger.decimal(from: ticker.price)
            }
        }
        var held: [String: (quantity: Decimal, value: Decimal)] = [:]
        for position in (try? PortfolioLedger.positions(transactions)) ?? [] where position.quantity > 0 {
            guard let p = price[position.exchange]?[position.market.base] else { continue }
            let sum = held[position.market.base] ?? (0, 0)
            held[position.market.base] = (sum.quantity + position.quantity, sum.value + position.quantity * p)
        }
        var unit: [String: Decimal] = [:]
        for coin in Set(transactions.map(\.market.base)) {
            if let sum = held[coin], sum.quantity > 0 {
                unit[coin] = sum.value / sum.quantity
            } else {
                let listed = price.values.compactMap { $0[coin] }
                if !listed.isEmpty { unit[coin] = listed.reduce(0, +) / Decimal(listed.count) }
            }
        }
        return unit
    }
}

extension ExchangeBoards {
    /// Every board's KRW tickers now, each board woken first (an idle board's prices are old) and
    /// given a moment to load.
    public func krwTickers(wait: Duration = .seconds(3)) async -> [Exchange: [Ticker]] {
        await withTaskGroup(of: (Exchange, [Ticker]).self) { group in
            for (exchange, board) in all {
                board.touch()
                group.addTask {
                    _ = await board.waitForData(upTo: wait)
                    return (exchange, board.snapshot.rows.values.filter { $0.id.quote == QuoteCurrency.krw.rawValue }.map(\.ticker))
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }
}
