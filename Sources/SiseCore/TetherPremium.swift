import Foundation

/// One exchange's KRW-USDT as seen: its price and when (nil: the exchange lists no KRW-USDT, or
/// it could not be read — `problem` says which).
public struct USDTQuote: Sendable, Equatable {
    public var exchange: Exchange
    public var price: Double?
    /// Epoch ms of the price.
    public var at: Int64?
    /// Why there is no price: not listed, or the exchange's answer.
    public var problem: Words?
    /// False when the exchange lists no KRW-USDT market.
    public var listed: Bool

    public init(exchange: Exchange, price: Double?, at: Int64?, problem: Words? = nil, listed: Bool = true) {
        self.exchange = exchange
        self.price = price
        self.at = at
        self.problem = problem
        self.listed = listed
    }

    /// No KRW-USDT market on this exchange.
    public static func unlisted(_ exchange: Exchange) -> USDTQuote {
        USDTQuote(exchange: exchange, price: nil, at: nil, problem: Words { UIText.tetherPremiumUnlisted($0) }, listed: false)
    }
}

/// 테더 김프: what USDT costs in Korea over the official dollar — `usdtKRW / officialKRWperUSD − 1`,
/// a signed fraction. Never against a market's USDT (that would be USDT against itself), never
/// from a price older than `bound`.
public enum TetherPremium {
    /// How old a KRW-USDT price may be to count as a premium (a live board's few beats).
    public static let bound: Int64 = 60_000

    public static func premium(_ quote: USDTQuote, official: FXQuote?, now: Int64) -> Double? {
        guard let price = quote.price, let at = quote.at, now - at <= bound, let official, official.source.basis == .official else { return nil }
        return KimchiPremium.premium(krwPrice: price, globalPrice: 1, krwPerUSD: official.krwPerUSD)
    }
}

/// `GET /api/premium/usdt` and `sise premium USDT --json`: every exchange's 테더 김프 against the
/// official rate, with that rate, its source and age, and words for each.
public struct TetherPremiumTable: Encodable, Sendable {
    public struct Official: Encodable, Sendable {
        public var rate: Double
        public var source: FXSource
        public var at: Int64
        public var fallback: Bool
    }

    /// One exchange's row: at least `exchange`, `usdtPrice`, `at`, `premium` (a signed fraction),
    /// `state` (`live`, `stale`, `unlisted`, `unavailable`), `display`.
    public struct Row: Encodable, Sendable {
        public var exchange: Exchange
        public var usdtPrice: Double?
        public var at: Int64?
        public var premium: Double?
        public var state: String
        public var display: [String: String]

        enum Keys: String, CodingKey { case exchange, usdtPrice, at, premium, state, display }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(exchange, forKey: .exchange)
            try c.encode(usdtPrice, forKey: .usdtPrice)
            try c.encode(at, forKey: .at)
            try c.encode(premium, forKey: .premium)
            try c.encode(state, forKey: .state)
            try c.encode(display, forKey: .display)
        }
    }

    public var official: Official?
    public var rows: [Row]
    /// Why there is no 테더 김프 at all (no official rate), in the request's language.
    public var unavailable: String?
    public var display: [String: String]

    enum Keys: String, CodingKey { case official, rows, unavailable, display }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(official, forKey: .official)
        try c.encode(rows, forKey: .rows)
        try c.encode(unavailable, forKey: .unavailable)
        try c.encode(display, forKey: .display)
    }

    /// The table of `quotes` (in the order given) against the official rate `decision` chose.
    public init(quotes: [USDTQuote], official decision: FXDecision, now: Int64, language: Language) {
        let f = MarketFormatter(language: language)
        // Only an official rate measures USDT (a market's USDT against itself is no premium).
        let rate = decision.quote.flatMap { $0.source.basis == .official ? $0 : nil }
        official = rate.map { Official(rate: $0.krwPerUSD, source: $0.source, at: $0.at, fallback: decision.fallback) }
        rows = quotes.map { quote in
            let premium = TetherPremium.premium(quote, official: rate, now: now)
            let state: String
            if premium != nil {
                state = "live"
            } else if !quote.listed {
                state = "unlisted"
            } else if quote.price == nil || rate == nil {
                state = "unavailable"
            } else {
                state = "stale"
            }
            var display = [
                "exchange": quote.exchange.displayName,
                "usdtPrice": quote.price.map { f.price($0, quote: "KRW") } ?? "-",
                "premium": premium.map(f.rate) ?? "-",
                "tone": PriceChange(signed: premium ?? 0).tone.rawValue,
            ]
            if let problem = quote.problem { display["problem"] = problem(language) }
            if let at = quote.at, state == "stale" { display["age"] = AgeText.short(now - at, language) }
            return Row(exchange: quote.exchange, usdtPrice: quote.price, at: quote.at, premium: premium, state: state, display: display)
        }
        unavailable =
            rate == nil ? UIText.tetherPremiumNoOfficial(language) + (decision.unavailableReason(language).map { " (\($0))" } ?? "") : nil
        var display = ["title": UIText.tetherPremium(language)]
        if let rate {
            display["official"] = UIText.fxLabel(language) + " " + rate.source.displayName(language) + " " + decision.rateText
            display["age"] = AgeText.short(now - rate.at, language)
        }
        if let fallback = decision.fallbackText(language) { display["fallback"] = fallback }
        self.display = display
    }
}
