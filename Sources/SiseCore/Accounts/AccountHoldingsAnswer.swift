import Foundation

/// The exchange holdings as `GET /api/portfolio/accounts` and `sise portfolio accounts --json`
/// answer them: the figures (exact decimals) and, beside each, the texts a face lays out in the
/// reader's language — the page formats nothing.
public struct AccountHoldingsAnswer: Sendable, Encodable {
    /// A holding's texts, as the CLI's table writes them.
    public struct RowDisplay: Sendable, Encodable, Equatable {
        public var name: String
        public var quantity: String
        /// `주문·출금 중 0.5` (nil: nothing locked).
        public var locked: String?
        public var average: String
        public var price: String
        public var value: String
        public var profit: String
        public var tone: Tone
    }

    /// A holding: its figures as exact decimal strings (`null` where one does not apply), then
    /// its texts.
    public struct Row: Sendable, Encodable {
        public var exchange: Exchange
        public var currency: String
        @Nullable public var market: String?
        public var quantity: String
        public var locked: String
        @Nullable public var averageBuyPrice: String?
        public var averageModified: Bool
        public var unitCurrency: String
        @Nullable public var price: String?
        @Nullable public var value: String?
        @Nullable public var profit: String?
        @Nullable public var profitRate: Double?
        public var display: RowDisplay

        init(_ holding: AccountHoldings.Holding, display: RowDisplay) {
            exchange = holding.exchange
            currency = holding.currency
            market = holding.market
            quantity = "\(holding.quantity)"
            locked = "\(holding.locked)"
            averageBuyPrice = holding.averageBuyPrice.map { "\($0)" }
            averageModified = holding.averageModified
            unitCurrency = holding.unitCurrency
            price = holding.price.map { "\($0)" }
            value = holding.value.map { "\($0)" }
            profit = holding.profit.map { "\($0)" }
            profitRate = holding.profitRate
            self.display = display
        }
    }

    /// The answer's texts: the total, the footnotes and one line per exchange read.
    public struct Display: Sendable, Encodable, Equatable {
        public var total: String
        public var notes: [String]
        public var sources: [String]
    }

    public var sources: [AccountHoldings.Source]
    public var holdings: [Row]
    /// The KRW value of every holding that has one, and the won held: exact decimal strings.
    public var totalValue: String
    public var cash: String
    public var display: Display

    public init(_ holdings: AccountHoldings, language: Language) {
        let text = AccountHoldingsText(language: language)
        sources = holdings.sources
        self.holdings = holdings.holdings.map { Row($0, display: text.display($0)) }
        totalValue = "\(holdings.totalValue)"
        cash = "\(holdings.cash)"
        display = Display(total: text.total(holdings), notes: text.notes(holdings), sources: holdings.sources.map { text.source($0) })
    }
}

extension AccountHoldingsText {
    /// `Upbit 잔고 09:24:01 기준`, or what the exchange said instead.
    public func source(_ source: AccountHoldings.Source) -> String {
        let name = source.exchange.displayName
        switch source.state {
        case .live:
            let time = source.fetchedAt.map(KSTText.clock) ?? "-"
            let line = AccountText.sourceLive(language, ["exchange": name, "time": time])
            return source.message.map { line + " · " + $0 } ?? line
        // The refusal's words name the exchange already.
        case .refused: return source.message ?? AccountText.sourceFailing(language, ["exchange": name, "message": ""])
        case .failing: return AccountText.sourceFailing(language, ["exchange": name, "message": source.message ?? ""])
        }
    }
}
