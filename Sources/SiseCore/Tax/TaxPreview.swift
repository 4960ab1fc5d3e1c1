import Foundation

/// A tax year's preview as every face shows it (`GET /api/tax/{year}`, `sise tax --json`, the
/// page's 세금 tab, the TUI's line): money and quantities as exact decimal strings, the figures
/// as people read them in `display`, and the words in the request's language.
public struct TaxPreview: Codable, Equatable, Sendable {
    public struct ExchangePrice: Codable, Equatable, Sendable {
        public var exchange: String
        public var price: String
        /// `stream`, `candle` or `live`.
        public var source: String
        public var tradedAt: Int64
    }

    /// The deemed price of a coin and the exchanges' prices that formed it.
    public struct Deemed: Codable, Equatable, Sendable {
        public var average: String
        public var recorded: Bool
        public var exchanges: [ExchangePrice]
    }

    public struct Coin: Codable, Equatable, Sendable {
        public var coin: String
        public var openingQuantity: String
        public var openingActualCost: String
        @Nullable public var openingDeemedCost: String?
        public var openingCost: String
        /// `deemed`, `actual` or `carried`.
        public var opening: String
        /// How much the winning opening cost beat the other (0 when they are equal or not compared).
        public var openingWinBy: String
        @Nullable public var deemedPrice: Deemed?
        public var boughtQuantity: String
        public var boughtCost: String
        public var averageCost: String
        public var soldQuantity: String
        public var proceeds: String
        public var fees: String
        public var costOfSold: String
        public var gain: String
        public var closingQuantity: String
        public var closingCost: String
        public var uncostedQuantity: String
        /// What the closing quantity would bring sold now at live prices, and the gain it adds.
        @Nullable public var liveValue: String?
        @Nullable public var liveGain: String?
        public var display: [String: String]
    }

    /// The year's totals, as they stand or with everything sold now.
    public struct Totals: Codable, Equatable, Sendable {
        public var income: String
        public var deduction: String
        public var taxable: String
        public var tax: String
        public var localTax: String
        public var total: String
        public var display: [String: String]
    }

    public var year: Int
    public var method: String
    public var noCost: String
    /// The deemed prices are live stand-ins (before the instant) or not yet confirmed by a 고시.
    public var provisional: Bool
    public var deemedRecorded: Bool
    public var asOf: Int64
    public var coins: [Coin]
    public var totals: Totals
    /// The same year if every holding were sold now at live prices (the current year only).
    @Nullable public var ifSoldNow: Totals?
    /// The tax a sale of everything now would add.
    @Nullable public var addedBySale: String?
    /// The totals under the other rule for units without a cost (when there are such units).
    @Nullable public var otherNoCostRule: Totals?
    public var warnings: [String]
    public var notice: String
    public var sourcesRead: String
}

extension TaxPreview {
    /// What the preview is made from besides the events.
    public struct Inputs: Sendable {
        public var year: Int
        public var method: TaxMethod
        public var noCost: NoCostRule
        /// Per coin, its deemed price (recorded, or live stand-ins before the instant).
        public var deemed: [String: DeemedPrice]
        /// Per coin, what one unit held would bring sold now — the live price of the exchanges it
        /// is held on, weighted by the holding (nil: not the current year).
        public var livePrice: [String: Decimal]?
        public var now: Int64
        public var language: Language

        public init(
            year: Int,
            method: TaxMethod = .default,
            noCost: NoCostRule = .zero,
            deemed: [String: DeemedPrice],
            livePrice: [String: Decimal]?,
            now: Int64,
            language: Language
        ) {
            self.year = year
            self.method = method
            self.noCost = noCost
            self.deemed = deemed
            self.livePrice = livePrice
            self.now = now
            self.language = language
        }
    }

    /// What the coin's closing units would bring sold now (nil: no live price, or not the current year).
    static func liveValue(_ row: CoinTaxYear, _ prices: [String: Decimal]?) -> Decimal? {
        guard let prices else { return nil }
        if row.closingQuantity == 0 { return 0 }
        return prices[row.coin].map { $0 * row.closingQuantity }
    }

    /// The tax year a preview opens on: the year now in Korea, and 2027 before it begins.
    public static func currentYear(now: Int64) -> Int { max(TaxRules.firstYear, TaxRules.year(of: now)) }

    public init(events: [TaxEvent], _ inputs: Inputs) throws(TaxYearError) {
        let language = inputs.language
        let deemedPrice: (String) -> Decimal? = { inputs.deemed[$0]?.average }
        let rows = try TaxYear.coins(events, year: inputs.year, method: inputs.method, noCost: inputs.noCost, deemedPrice: deemedPrice)
        var warnings: [String] = []
        var coins: [Coin] = []
        for row in rows {
            let deemed = inputs.deemed[row.coin]
            if inputs.year == TaxRules.firstYear, row.openingQuantity > 0, deemed?.average == nil {
                warnings.append(TaxText.noDeemedPrice(language, ["coin": row.coin]))
            }
            let live = Self.liveValue(row, inputs.livePrice)
            coins.append(Coin(row, deemed: deemed, liveValue: live, language: language))
        }
        let income = rows.reduce(Decimal(0)) { $0 + $1.gain }
        let totals = Totals(income: income, language: language)
        var ifSoldNow: Totals?
        var added: String?
        if let livePrice = inputs.livePrice {
            // A coin without a live price counts as sold at its cost (it adds nothing).
            let sale = rows.reduce(Decimal(0)) { sum, row in sum + (Self.liveValue(row, livePrice).map { $0 - row.closingCost } ?? 0) }
            let sold = Totals(income: income + sale, language: language)
            ifSoldNow = sold
            added = PortfolioLedger.text((Decimal(string: sold.total) ?? 0) - (Decimal(string: totals.total) ?? 0), scale: 0)
        }
        var other: Totals?
        let uncosted = rows.filter { $0.uncostedQuantity > 0 }
        if !uncosted.isEmpty {
            let otherRule: NoCostRule = inputs.noCost == .zero ? .halfOfProceeds : .zero
            let otherRows = try TaxYear.coins(events, year: inputs.year, method: inputs.method, noCost: otherRule, deemedPrice: deemedPrice)
            let otherIncome = otherRows.reduce(Decimal(0)) { $0 + $1.gain }
            other = Totals(income: otherIncome, language: language)
            for row in uncosted {
                warnings.append(
                    TaxText.noCost(
                        language,
                        [
                            "coin": row.coin, "quantity": HoldingText.quantity(row.uncostedQuantity),
                            "alternative": DecimalText.grouped(otherIncome, places: 0),
                        ]
                    )
                )
            }
        }
        let recorded = !inputs.deemed.isEmpty && inputs.deemed.values.allSatisfy(\.recorded)
        let standIns = inputs.deemed.values.contains { $0.quotes.contains { $0.source == .live } }
        self.init(
            year: inputs.year,
            method: inputs.method.rawValue,
            noCost: inputs.noCost.rawValue,
            provisional: true,
            deemedRecorded: recorded,
            asOf: inputs.now,
            coins: coins,
            totals: totals,
            ifSoldNow: ifSoldNow,
            addedBySale: added,
            otherNoCostRule: other,
            warnings: (standIns ? [TaxText.liveDeemed(language)] : []) + [TaxText.provisionalDeemed(language)] + warnings,
            notice: TaxText.notice(language, ["date": TaxRules.sourcesRead]),
            sourcesRead: TaxRules.sourcesRead
        )
    }
}

extension TaxPreview.Totals {
    /// The year's figures from its net income (losses net within the year; none carried).
    init(income: Decimal, language: Language) {
        let taxable = max(0, income - TaxRules.deduction)
        let tax = TaxRules.wholeWon(taxable * TaxRules.rate)
        let local = TaxRules.wholeWon(tax * TaxRules.localRate)
        let money = { (value: Decimal) in PortfolioLedger.text(value, scale: 0) }
        self.init(
            income: money(income),
            deduction: money(TaxRules.deduction),
            taxable: money(taxable),
            tax: money(tax),
            localTax: money(local),
            total: money(tax + local),
            display: [
                "income": DecimalText.signed(income, places: 0), "deduction": DecimalText.grouped(TaxRules.deduction, places: 0),
                "taxable": DecimalText.grouped(taxable, places: 0), "tax": DecimalText.grouped(tax, places: 0),
                "localTax": DecimalText.grouped(local, places: 0), "total": DecimalText.grouped(tax + local, places: 0),
            ]
        )
    }
}

extension TaxPreview.Coin {
    init(_ row: CoinTaxYear, deemed: DeemedPrice?, liveValue: Decimal?, language: Language) {
        let money = { (value: Decimal) in PortfolioLedger.text(value, scale: 8) }
        let quantity = { (value: Decimal) in PortfolioLedger.text(value, scale: 8) }
        let winBy = row.openingDeemedCost.map { abs(row.openingCost - min($0, row.openingActualCost)) } ?? 0
        let liveGain = liveValue.map { $0 - row.closingCost }
        let openingWord: TaxText =
            switch row.opening {
            case .deemed: .openingDeemed
            case .actual: .openingActual
            case .carried: .openingCarried
            }
        var display: [String: String] = [
            "openingQuantity": HoldingText.quantity(row.openingQuantity), "openingCost": DecimalText.grouped(row.openingCost, places: 0),
            "opening": openingWord(language), "openingWinBy": DecimalText.grouped(winBy, places: 0),
            "averageCost": DecimalText.price(row.averageCost), "boughtQuantity": HoldingText.quantity(row.boughtQuantity),
            "boughtCost": DecimalText.grouped(row.boughtCost, places: 0), "soldQuantity": HoldingText.quantity(row.soldQuantity),
            "proceeds": DecimalText.grouped(row.proceeds, places: 0), "fees": DecimalText.grouped(row.fees, places: 0),
            "costOfSold": DecimalText.grouped(row.costOfSold, places: 0), "gain": DecimalText.signed(row.gain, places: 0),
            "closingQuantity": HoldingText.quantity(row.closingQuantity),
            "tone": (row.gain > 0 ? Tone.rise : row.gain < 0 ? Tone.fall : Tone.even).rawValue,
        ]
        if let average = deemed?.average { display["deemedPrice"] = DecimalText.price(average) }
        if let liveGain { display["liveGain"] = DecimalText.signed(liveGain, places: 0) }
        self.init(
            coin: row.coin,
            openingQuantity: quantity(row.openingQuantity),
            openingActualCost: money(row.openingActualCost),
            openingDeemedCost: row.openingDeemedCost.map(money),
            openingCost: money(row.openingCost),
            opening: row.opening.rawValue,
            openingWinBy: money(winBy),
            deemedPrice: deemed.flatMap { d in
                d.average.map { average in
                    TaxPreview.Deemed(
                        average: money(average),
                        recorded: d.recorded,
                        exchanges: d.quotes.map {
                            TaxPreview.ExchangePrice(
                                exchange: $0.exchange.rawValue,
                                price: money($0.price),
                                source: $0.source.rawValue,
                                tradedAt: $0.tradedAt
                            )
                        }
                    )
                }
            },
            boughtQuantity: quantity(row.boughtQuantity),
            boughtCost: money(row.boughtCost),
            averageCost: money(row.averageCost),
            soldQuantity: quantity(row.soldQuantity),
            proceeds: money(row.proceeds),
            fees: money(row.fees),
            costOfSold: money(row.costOfSold),
            gain: money(row.gain),
            closingQuantity: quantity(row.closingQuantity),
            closingCost: money(row.closingCost),
            uncostedQuantity: quantity(row.uncostedQuantity),
            liveValue: liveValue.map(money),
            liveGain: liveGain.map(money),
            display: display
        )
    }
}
