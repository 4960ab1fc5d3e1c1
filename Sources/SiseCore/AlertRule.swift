import Foundation

/// What an alert watches.
public enum AlertKind: String, Codable, CaseIterable, Sendable {
    /// The price reaches `value` or more.
    case above
    /// The price reaches `value` or less.
    case below
    /// The price moves `value` percent or more within `windowMinutes` (up from the window's
    /// low or down from its high).
    case move
    /// The kimchi premium reaches `value` percent or more.
    case premiumAbove
    /// The kimchi premium reaches `value` percent or less.
    case premiumBelow
    /// The market trades `value` times its usual pace or more within `windowMinutes` (the usual
    /// pace: the trailing 24 hours' traded value; see `VolumeWindow`).
    case volumeSpike
    /// An indicator signal (`indicator`) on the close of a `windowMinutes` candle.
    case indicator
    /// 체결강도 (the tape's buy volume over its sell volume) reaches `value` percent or more.
    case strengthAbove
    /// 체결강도 reaches `value` percent or less.
    case strengthBelow
    /// The P&L (return, percent) of a holding — or, on `portfolio`, of the whole portfolio — reaches
    /// `value` or more (a loss is negative: −10 is down 10 %).
    case pnlAbove
    /// The return reaches `value` percent or less.
    case pnlBelow
    /// The unrealised P&L (KRW) reaches `value` or more.
    case pnlAmountAbove
    /// The unrealised P&L (KRW) reaches `value` or less.
    case pnlAmountBelow

    /// A P&L line (read from the owner's portfolio, not from one market's ticks alone).
    public var isPnL: Bool { self == .pnlAbove || self == .pnlBelow || self == .pnlAmountAbove || self == .pnlAmountBelow }
}

/// One alert rule of an owner, on one market of one exchange — or, with a `target`, on every
/// market of the owner's favorites or holdings on that exchange.
public struct AlertRule: Hashable, Codable, Sendable {
    public var id: String
    public var owner: String
    public var exchange: Exchange
    /// The market (a wide rule: `target.market`, a placeholder; a wide rule's firing: the market
    /// of its list that fired).
    public var market: MarketID
    /// A wide rule's list; nil for a rule on one market.
    public var target: AlertTarget?
    public var kind: AlertKind
    /// KRW (above/below), percent (move, premium) or a factor (volume spike), as a decimal.
    public var value: Decimal
    /// The window of a move (1…1440 minutes) or a volume spike (1…60 minutes); an indicator
    /// rule's candle interval (1, 5, 15, 60, 240 or 1440 minutes).
    public var windowMinutes: Int?
    /// The global venue a premium rule measures against (premium only; nil: Binance, the board's
    /// 김프 column). A KRW-USDT premium rule is 테더 김프, against the official rate: no venue.
    public var venue: GlobalVenue?
    /// A premium rule fires only once its line has held this long (premium only), 1…1440 minutes.
    public var holdMinutes: Int?
    /// What an indicator rule waits for (indicator only).
    public var indicator: IndicatorSignal?
    /// Fires again on each new crossing (after `cooldownSeconds`); otherwise fires once and is disabled.
    public var recurring: Bool
    public var cooldownSeconds: Int
    public var enabled: Bool
    public var createdAt: Int64
    public var lastFiredAt: Int64?

    public init(
        id: String,
        owner: String,
        exchange: Exchange,
        market: MarketID,
        kind: AlertKind,
        value: Decimal,
        windowMinutes: Int? = nil,
        venue: GlobalVenue? = nil,
        holdMinutes: Int? = nil,
        indicator: IndicatorSignal? = nil,
        target: AlertTarget? = nil,
        recurring: Bool = false,
        cooldownSeconds: Int = 0,
        enabled: Bool = true,
        createdAt: Int64 = 0,
        lastFiredAt: Int64? = nil
    ) {
        self.id = id
        self.owner = owner
        self.exchange = exchange
        self.market = market
        self.kind = kind
        self.value = value
        self.windowMinutes = windowMinutes
        self.venue = venue
        self.holdMinutes = holdMinutes
        self.indicator = indicator
        self.target = target
        self.recurring = recurring
        self.cooldownSeconds = cooldownSeconds
        self.enabled = enabled
        self.createdAt = createdAt
        self.lastFiredAt = lastFiredAt
    }

    /// Whether the rule watches the premium.
    public var isPremium: Bool { kind == .premiumAbove || kind == .premiumBelow }

    /// The venue a premium rule measures against (Binance unless it names another); nil for
    /// other rules and for 테더 김프 (KRW-USDT, against the official rate).
    public var premiumVenue: GlobalVenue? { isPremium && market.base != "USDT" ? venue ?? .binance : nil }

    /// The rule in words (`reached 100,000,000 or above`, `premium at or above 3% against OKX,
    /// held 10 min`).
    public func describe(_ language: Language) -> String {
        let number = NSDecimalNumber(decimal: value).doubleValue
        let percent = PortfolioLedger.text(value, scale: 2)
        var text =
            switch kind {
            case .above: UIText.alertRuleAbove(language, ["price": MarketFormatter(language: language).price(number, quote: market.quote)])
            case .below: UIText.alertRuleBelow(language, ["price": MarketFormatter(language: language).price(number, quote: market.quote)])
            case .move: UIText.alertRuleMove(language, ["percent": percent, "window": String(windowMinutes ?? 0)])
            case .premiumAbove: UIText.alertRulePremiumAbove(language, ["percent": percent])
            case .premiumBelow: UIText.alertRulePremiumBelow(language, ["percent": percent])
            case .volumeSpike: UIText.alertRuleVolumeSpike(language, ["factor": percent, "window": String(windowMinutes ?? 0)])
            case .indicator: indicator?.describe(language, interval: windowMinutes ?? 60) ?? ""
            case .strengthAbove: UIText.alertRuleStrengthAbove(language, ["percent": percent])
            case .strengthBelow: UIText.alertRuleStrengthBelow(language, ["percent": percent])
            case .pnlAbove: UIText.alertRulePnlAbove(language, ["percent": percent])
            case .pnlBelow: UIText.alertRulePnlBelow(language, ["percent": percent])
            case .pnlAmountAbove: UIText.alertRulePnlAmountAbove(language, ["amount": Self.won(value, language)])
            case .pnlAmountBelow: UIText.alertRulePnlAmountBelow(language, ["amount": Self.won(value, language)])
            }
        if let venue, venue != .binance { text = UIText.alertRuleVenue(language, ["rule": text, "venue": venue.displayName]) }
        if let holdMinutes { text = UIText.alertRuleHeld(language, ["rule": text, "minutes": String(holdMinutes)]) }
        switch target {
        case .portfolio?: text = UIText.alertRulePortfolio(language, ["rule": text])
        case let list?: text = UIText.alertRuleTarget(language, ["target": list.name(language), "rule": text])
        case nil: break
        }
        return text
    }

    /// The value that crossed the line, as a fired rule's words say it after the rule (`-48.21%`,
    /// `-1,234,567원`, `3.4배`); nil where the price the firing carries says it (a price line, an
    /// indicator's close) or the value is not a number.
    public func observedWords(_ observed: Double, _ language: Language) -> String? {
        guard observed.isFinite else { return nil }
        let signed = (observed > 0 ? "+" : "") + NumberText.grouped(observed, decimals: 2) + "%"
        switch kind {
        case .above, .below, .indicator: return nil
        case .move, .premiumAbove, .premiumBelow, .pnlAbove, .pnlBelow: return signed
        case .strengthAbove, .strengthBelow: return NumberText.grouped(observed, decimals: 2) + "%"
        case .volumeSpike: return UIText.alertTimesUsual(language, ["factor": NumberText.grouped(observed, decimals: 1)])
        case .pnlAmountAbove, .pnlAmountBelow: return UIText.alertWon(language, ["amount": Self.won(Decimal(observed.rounded()), language)])
        }
    }

    /// A signed KRW amount, grouped as the portfolio shows it (`-1,000,000`).
    static func won(_ value: Decimal, _ language: Language) -> String {
        let number = NSDecimalNumber(decimal: value).doubleValue
        let text = MarketFormatter(language: language).price(abs(number), quote: "KRW")
        return number < 0 ? "-" + text : text
    }
}

/// An alert that fired: what every delivery (page, terminal, webhook) carries.
public struct AlertFiring: Codable, Equatable, Sendable {
    public var type = "alert"
    public var id: String
    public var alertId: String
    public var owner: String
    public var exchange: String
    public var market: String
    /// The rule's kind (`above`, `below`, `move`, `premiumAbove`, `premiumBelow`, `volumeSpike`, `indicator`, `strengthAbove`,
    /// `strengthBelow`, `pnlAbove`, `pnlBelow`, `pnlAmountAbove`, `pnlAmountBelow`), or a change's
    /// (`depositSuspended`, `listed` … — `alertId` is then `changes:wallets|flags|listings`).
    public var rule: String
    /// The rule's threshold (KRW or percent), as a decimal string.
    public var value: String
    /// The price that fired it (a whole-portfolio P&L line: the portfolio's value, KRW).
    public var price: Double
    /// The premium (percent) that fired a premium rule; the move (percent) that fired a move; the
    /// pace (times the usual) that fired a volume spike; the return (percent) or P&L (KRW) that
    /// fired a P&L line.
    public var observed: Double?
    /// The global venue a premium rule measured against (`binance`, `okx`, `bybit`); nil for
    /// other rules and for 테더 김프 (KRW-USDT, against the official rate).
    public var venue: String?
    /// Epoch ms.
    public var at: Int64
    /// `at` as a Korean clock reads it (`09:24:01`, KST), for the lines faces show.
    public var clock: String { KSTText.clock(at) }
    /// The rule in words, in Korean and English (`{market} {rule}` is the line to show).
    public var message: [String: String]

    enum CodingKeys: String, CodingKey { case type, id, alertId, exchange, market, rule, value, price, observed, venue, at, clock, message }

    init(
        id: String,
        alertId: String,
        owner: String,
        exchange: String,
        market: String,
        rule: String,
        value: String,
        price: Double,
        at: Int64,
        message: [String: String]
    ) {
        self.id = id
        self.alertId = alertId
        self.owner = owner
        self.exchange = exchange
        self.market = market
        self.rule = rule
        self.value = value
        self.price = price
        self.at = at
        self.message = message
    }

    public init(id: String, rule: AlertRule, price: Double, observed: Double?, at: Int64) {
        self.id = id
        alertId = rule.id
        owner = rule.owner
        exchange = rule.exchange.rawValue
        market = rule.market.code
        self.rule = rule.kind.rawValue
        value = PortfolioLedger.text(rule.value)
        self.price = price
        self.observed = observed
        venue = rule.premiumVenue?.rawValue
        self.at = at
        // The whole portfolio's line names no exchange or market.
        message = Dictionary(
            uniqueKeysWithValues: Language.allCases.map {
                var words = rule.describe($0)
                // What crossed the line, beside the line itself ("수익률 -10% 이하 (지금 -48.21%)").
                if let observed, let seen = rule.observedWords(observed, $0) { words = UIText.alertObservedNow($0, ["rule": words, "value": seen]) }
                let line =
                    rule.target == .portfolio
                    ? words : UIText.alertFired($0, ["exchange": rule.exchange.displayName, "market": rule.market.code, "rule": words])
                return ($0.rawValue, line)
            }
        )
    }

    /// Decoded from a stored body, the owner is the store's to say (it is never sent out).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        alertId = try c.decode(String.self, forKey: .alertId)
        owner = ""
        exchange = try c.decode(String.self, forKey: .exchange)
        market = try c.decode(String.self, forKey: .market)
        rule = try c.decode(String.self, forKey: .rule)
        value = try c.decode(String.self, forKey: .value)
        price = try c.decode(Double.self, forKey: .price)
        observed = try c.decodeIfPresent(Double.self, forKey: .observed)
        venue = try c.decodeIfPresent(String.self, forKey: .venue)
        at = try c.decode(Int64.self, forKey: .at)
        message = try c.decode([String: String].self, forKey: .message)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(id, forKey: .id)
        try c.encode(alertId, forKey: .alertId)
        try c.encode(exchange, forKey: .exchange)
        try c.encode(market, forKey: .market)
        try c.encode(rule, forKey: .rule)
        try c.encode(value, forKey: .value)
        try c.encode(price, forKey: .price)
        try c.encode(observed, forKey: .observed)
        try c.encodeIfPresent(venue, forKey: .venue)
        try c.encode(at, forKey: .at)
        try c.encode(clock, forKey: .clock)
        try c.encode(message, forKey: .message)
    }
}
