import Foundation

/// `GET /api/premium/executable` and `sise premium SYM --amount N --json`: what an amount of won
/// would make in each direction between a Korean exchange and a global venue, walked through the
/// live books, after the sending side's withdrawal fee — or why there is no figure. At least these keys.
public struct ExecutablePremiumTable: Encodable, Sendable {
    public struct Way: Encodable, Sendable {
        public var direction: ExecutablePremium.Direction
        /// `ok`, `walletShut`, `bookTooThin`, `feeExceedsAmount`, `noRate`, `noBook`.
        public var state: String
        public var krwIn: Double
        public var krwOut: Double?
        public var profit: Double?
        /// `profit / krwIn`, a signed fraction.
        public var rate: Double?
        public var buyPrice: Double?
        public var sellPrice: Double?
        public var bought: Double?
        public var arrived: Double?
        /// The withdrawal fee taken off (coin units); null when the sending side publishes none.
        public var fee: Double?
        /// The figure, or why there is none, in words.
        public var text: String
        /// The rate alone (`+2.10%`), or the state in a word (`중단`, `-`): where a table has one cell for it.
        public var short: String = "-"
        /// `rise` for a gain, `fall` for a loss, `even` otherwise: the colour a face gives the figure.
        public var tone: Tone { PriceChange(signed: profit ?? 0).tone }

        enum Keys: String, CodingKey {
            case direction, state, krwIn, krwOut, profit, rate, buyPrice, sellPrice, bought, arrived, fee, text, short, tone
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(direction, forKey: .direction)
            try c.encode(state, forKey: .state)
            try c.encode(krwIn, forKey: .krwIn)
            try c.encode(krwOut, forKey: .krwOut)
            try c.encode(profit, forKey: .profit)
            try c.encode(rate, forKey: .rate)
            try c.encode(buyPrice, forKey: .buyPrice)
            try c.encode(sellPrice, forKey: .sellPrice)
            try c.encode(bought, forKey: .bought)
            try c.encode(arrived, forKey: .arrived)
            try c.encode(fee, forKey: .fee)
            try c.encode(text, forKey: .text)
            try c.encode(short, forKey: .short)
            try c.encode(tone.rawValue, forKey: .tone)
        }
    }

    public var exchange: Exchange
    public var symbol: String
    public var venue: GlobalVenue
    public var amount: Double
    /// KRW per USD(T) used, and its source.
    public var fxRate: Double?
    public var fxSource: FXSource?
    public var ways: [Way]
    /// What the figures leave out (trading fees; what the venue does not publish), in words.
    public var notes: [String]

    public init(
        exchange: Exchange,
        symbol: String,
        venue: GlobalVenue,
        amount: Double,
        fx: FXQuote?,
        results: [(ExecutablePremium.Direction, Result<ExecutablePremium.Outcome, ExecutablePremium.Refusal>?)],
        language: Language
    ) {
        self.exchange = exchange
        self.symbol = symbol
        self.venue = venue
        self.amount = amount
        fxRate = fx?.krwPerUSD
        fxSource = fx?.source
        let names = ["exchange": exchange.displayName, "venue": venue.displayName, "symbol": symbol]
        ways = results.map { direction, result in
            var way = Way(direction: direction, state: "noBook", krwIn: amount, text: UIText.executableNoBook(language, names))
            switch result {
            case .success(let outcome)?:
                way.state = "ok"
                way.krwOut = outcome.krwOut
                way.profit = outcome.profit
                way.rate = outcome.rate
                way.buyPrice = outcome.buyPrice
                way.sellPrice = outcome.sellPrice
                way.bought = outcome.bought
                way.arrived = outcome.arrived
                way.fee = outcome.fee
                let f = MarketFormatter(language: language)
                way.text = UIText.executableResult(
                    language,
                    [
                        "out": f.price(outcome.krwOut.rounded(), quote: "KRW"),
                        "profit": (outcome.profit.rounded() > 0 ? "+" : "") + f.price(outcome.profit.rounded(), quote: "KRW"),
                        "rate": f.rate(outcome.rate),
                    ]
                )
                way.short = f.rate(outcome.rate)
            case .failure(let refusal)?:
                (way.state, way.text) = Self.words(refusal, names, language)
                if way.state == "walletShut" { way.short = UIText.walletShut(language) }
            case nil:
                break
            }
            return way
        }
        notes = [UIText.executableNoTradingFees(language), UIText.executableGlobalUnpublished(language, names)]
    }

    static func words(_ refusal: ExecutablePremium.Refusal, _ names: [String: String], _ language: Language) -> (String, String) {
        switch refusal {
        case .walletShut(_, .deposit): ("walletShut", UIText.executableDepositShut(language, names))
        case .walletShut(_, .withdraw): ("walletShut", UIText.executableWithdrawShut(language, names))
        case .bookTooThin(.korean): ("bookTooThin", UIText.executableThinBook(language, ["where": names["exchange"] ?? ""]))
        case .bookTooThin(.global): ("bookTooThin", UIText.executableThinBook(language, ["where": names["venue"] ?? ""]))
        case .feeExceedsAmount: ("feeExceedsAmount", UIText.executableFeeExceeds(language))
        case .noRate: ("noRate", UIText.premiumUnavailable(language, ["reason": UIText.fxLabel(language)]))
        }
    }

    enum Keys: String, CodingKey { case exchange, symbol, venue, amount, fx, ways, notes }
    enum FXKeys: String, CodingKey { case rate, source }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(exchange, forKey: .exchange)
        try c.encode(symbol, forKey: .symbol)
        try c.encode(venue, forKey: .venue)
        try c.encode(amount, forKey: .amount)
        var fx = c.nestedContainer(keyedBy: FXKeys.self, forKey: .fx)
        try fx.encode(fxRate, forKey: .rate)
        try fx.encode(fxSource, forKey: .source)
        try c.encode(ways, forKey: .ways)
        try c.encode(notes, forKey: .notes)
    }
}
