import Foundation

/// What to show of the matrix: which venues and exchanges, the order, how many rows.
public struct PremiumMatrixQuery: Sendable, Equatable {
    public var venues: [GlobalVenue]
    public var exchanges: [Exchange]
    /// `premium` (by the first shown exchange × venue cell) or `value` (Korean trade value).
    public var sortByPremium: Bool
    /// The exchange whose column the premium sort reads (nil: the first shown).
    public var sortExchange: Exchange?
    public var descending: Bool
    public var symbols: Set<String>?
    public var limit: Int

    public static let maxLimit = 500

    public init(
        venues: [GlobalVenue] = GlobalVenue.allCases,
        exchanges: [Exchange] = Exchange.allCases,
        sortByPremium: Bool = false,
        descending: Bool = true,
        symbols: Set<String>? = nil,
        limit: Int = 100
    ) {
        self.venues = venues
        self.exchanges = exchanges
        self.sortByPremium = sortByPremium
        self.descending = descending
        self.symbols = symbols
        self.limit = min(max(1, limit), Self.maxLimit)
    }

    /// The matrix's rows as asked: filtered, ordered, cut.
    public func apply(_ rows: [PremiumMatrix.Row]) -> [PremiumMatrix.Row] {
        var shown = symbols.map { wanted in rows.filter { wanted.contains($0.symbol) } } ?? rows
        shown = shown.filter { row in exchanges.contains { row.legs[$0] != nil } }
        if sortByPremium, let exchange = sortExchange ?? exchanges.first, let venue = venues.first {
            shown = PremiumMatrix.sorted(shown, by: exchange, venue, descending: descending)
        } else if !descending {
            shown.reverse()
        }
        return Array(shown.prefix(limit))
    }
}

/// `GET /api/premium/matrix` and `sise premium --matrix --json`: the rate, each venue's state,
/// and a row per coin with a cell per shown exchange × venue (`cells.upbit.okx`:
/// `{premium, state, display}`); at least these keys.
public struct PremiumMatrixTable: Encodable, Sendable {
    public struct FX: Encodable, Sendable {
        public var rate: Double
        public var source: FXSource
        public var at: Int64
        public var fallback: Bool
    }

    public struct Venue: Encodable, Sendable {
        public var id: GlobalVenue
        public var name: String
        public var state: String
        public var at: Int64?
        public var problem: String?
    }

    public struct Cell: Encodable, Sendable {
        public var premium: Double?
        public var state: PremiumMatrix.State
        public var display: String

        /// `rise`, `fall` or `even`: the colour a face gives the figure.
        public var tone: Tone { PriceChange(signed: premium ?? 0).tone }

        enum Keys: String, CodingKey { case premium, state, display, tone }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(premium, forKey: .premium)
            try c.encode(state, forKey: .state)
            try c.encode(display, forKey: .display)
            try c.encode(tone.rawValue, forKey: .tone)
        }
    }

    public struct Row: Encodable, Sendable {
        public var symbol: String
        public var name: String
        /// Each shown exchange's KRW price (null where it does not list the coin).
        public var krwPrices: [String: Double?]
        public var cells: [String: [String: Cell]]

        enum Keys: String, CodingKey { case symbol, name, krwPrices, cells }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(symbol, forKey: .symbol)
            try c.encode(name, forKey: .name)
            try c.encode(krwPrices, forKey: .krwPrices)
            try c.encode(cells, forKey: .cells)
        }
    }

    public var fx: FX?
    public var venues: [Venue]
    public var exchanges: [Exchange]
    public var rows: [Row]
    public var unavailable: String?
    public var display: [String: String]

    enum Keys: String, CodingKey { case fx, venues, exchanges, rows, unavailable, display }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(fx, forKey: .fx)
        try c.encode(venues, forKey: .venues)
        try c.encode(exchanges, forKey: .exchanges)
        try c.encode(rows, forKey: .rows)
        try c.encode(unavailable, forKey: .unavailable)
        try c.encode(display, forKey: .display)
    }

    /// - Parameters:
    ///   - names: a coin's name by symbol, in `language`.
    ///   - venueStates: each venue's state, when it was last answered, and why it fails.
    public init(
        rows: [PremiumMatrix.Row],
        query: PremiumMatrixQuery,
        decision: FXDecision,
        venueStates: [GlobalVenue: (state: String, at: Int64?, problem: Words?)],
        names: [String: String],
        language: Language
    ) {
        let f = MarketFormatter(language: language)
        fx = decision.quote.map { FX(rate: $0.krwPerUSD, source: $0.source, at: $0.at, fallback: decision.fallback) }
        venues = query.venues.map { venue in
            let state = venueStates[venue]
            return Venue(id: venue, name: venue.displayName, state: state?.state ?? "waiting", at: state?.at, problem: state?.problem?(language))
        }
        exchanges = query.exchanges
        self.rows = query.apply(rows).map { row in
            var prices: [String: Double?] = [:]
            var cells: [String: [String: Cell]] = [:]
            for exchange in query.exchanges {
                prices[exchange.rawValue] = row.legs[exchange]?.price
                var line: [String: Cell] = [:]
                for venue in query.venues {
                    let cell = row.cell(exchange, venue)
                    line[venue.rawValue] = Cell(premium: cell.premium, state: cell.state, display: cell.premium.map(f.rate) ?? Self.mark(cell.state))
                }
                cells[exchange.rawValue] = line
            }
            return Row(symbol: row.symbol, name: names[row.symbol] ?? row.symbol, krwPrices: prices, cells: cells)
        }
        unavailable = decision.unavailableReason(language)
        var display = [
            "title": UIText.premiumMatrix(language),
            "fx": UIText.fxLabel(language) + " " + (decision.quote?.source.displayName(language) ?? "-") + " " + decision.rateText,
        ]
        if let fallback = decision.fallbackText(language) { display["fallback"] = fallback }
        if let quote = decision.quote { display["basis"] = UIText.fxBasis(language, ["basis": quote.source.basis.displayName(language)]) }
        self.display = display
    }

    /// What a cell without a figure shows: `-` (not listed), `…` (stale), `?` (doubt).
    public static func mark(_ state: PremiumMatrix.State) -> String {
        switch state {
        case .live, .missing, .noRate, .unavailable: "-"
        case .stale: "…"
        case .doubt: "?"
        }
    }
}
