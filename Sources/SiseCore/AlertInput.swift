import Foundation

/// An alert as people and scripts send it, checked in one place for the API and the CLI:
/// `{"exchange":"upbit","market":"KRW-BTC","type":"above","price":"…"}`,
/// `{…,"type":"move","percent":"5","windowMinutes":10}`, `{…,"type":"premiumAbove","percent":"3"}`
/// (premium rules may add `"venue":"okx"` and `"holdMinutes":10`),
/// `{…,"type":"volumeSpike","factor":"3","windowMinutes":5}`,
/// `{…,"type":"indicator","indicator":"rsiAbove","level":70,"interval":"1h"}` (or `maCrossUp`
/// with `fast`/`slow`, `bollingerBelow` …); `"market":"favorites"` or `"holdings"` for a wide
/// rule on every market of that list (not for price lines); `{…,"type":"pnlAbove","percent":"-10"}`
/// or `{…,"type":"pnlAmountBelow","amount":"-1000000"}` on a held market, on `holdings` (each
/// holding) or on `portfolio` (the whole portfolio's total); plus optional
/// `"recurring":true,"cooldownSeconds":600`.
public struct AlertInput: Decodable, Sendable {
    public var exchange: String?
    public var market: String
    public var type: String
    public var price: String?
    public var percent: String?
    /// A volume spike's factor: how many times the usual pace (1…1000).
    public var factor: String?
    /// A P&L amount line's KRW (signed: a loss is negative).
    public var amount: String?
    public var windowMinutes: Int?
    /// An indicator rule's signal (`IndicatorSignal.names`), its RSI level (default 70 above, 30
    /// below), its averages (default 5 and 20) and its candle interval (`1m` … `1d`, default `1h`).
    public var indicator: String?
    public var level: Double?
    public var fast: Int?
    public var slow: Int?
    public var interval: String?
    /// A premium rule's global venue (`binance`, `okx`, `bybit`; default Binance).
    public var venue: String?
    /// A premium rule's hold: it fires once the line has held this many minutes.
    public var holdMinutes: Int?
    public var recurring: Bool?
    public var cooldownSeconds: Int?
    public var enabled: Bool?

    public init(
        exchange: String? = nil,
        market: String,
        type: String,
        price: String? = nil,
        percent: String? = nil,
        factor: String? = nil,
        windowMinutes: Int? = nil,
        venue: String? = nil,
        holdMinutes: Int? = nil,
        recurring: Bool? = nil,
        cooldownSeconds: Int? = nil,
        indicator: String? = nil,
        level: Double? = nil,
        fast: Int? = nil,
        slow: Int? = nil,
        interval: String? = nil,
        amount: String? = nil
    ) {
        self.amount = amount
        self.indicator = indicator
        self.level = level
        self.fast = fast
        self.slow = slow
        self.interval = interval
        self.exchange = exchange
        self.market = market
        self.type = type
        self.price = price
        self.percent = percent
        self.factor = factor
        self.windowMinutes = windowMinutes
        self.venue = venue
        self.holdMinutes = holdMinutes
        self.recurring = recurring
        self.cooldownSeconds = cooldownSeconds
    }

    enum CodingKeys: String, CodingKey {
        case exchange, market, type, price, percent, factor, windowMinutes, venue, holdMinutes, recurring, cooldownSeconds, enabled
        case indicator, level, fast, slow, interval, amount
    }

    /// Decimal fields may come as JSON numbers too (read through their text).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func decimalText(_ key: CodingKeys) -> String? {
            guard c.contains(key) else { return nil }
            if let text = try? c.decode(String.self, forKey: key) { return text }
            return (try? c.decode(Decimal.self, forKey: key)).map { "\($0)" }
        }
        exchange = try c.decodeIfPresent(String.self, forKey: .exchange)
        market = try c.decode(String.self, forKey: .market)
        type = try c.decode(String.self, forKey: .type)
        price = decimalText(.price)
        percent = decimalText(.percent)
        factor = decimalText(.factor)
        amount = decimalText(.amount)
        windowMinutes = try c.decodeIfPresent(Int.self, forKey: .windowMinutes)
        venue = try c.decodeIfPresent(String.self, forKey: .venue)
        holdMinutes = try c.decodeIfPresent(Int.self, forKey: .holdMinutes)
        recurring = try c.decodeIfPresent(Bool.self, forKey: .recurring)
        cooldownSeconds = try c.decodeIfPresent(Int.self, forKey: .cooldownSeconds)
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled)
        indicator = try c.decodeIfPresent(String.self, forKey: .indicator)
        level = try c.decodeIfPresent(Double.self, forKey: .level)
        fast = try c.decodeIfPresent(Int.self, forKey: .fast)
        slow = try c.decodeIfPresent(Int.self, forKey: .slow)
        interval = try c.decodeIfPresent(String.self, forKey: .interval)
    }

    public typealias Failure = PortfolioInput.Failure

    /// The checked rule of `owner`.
    public func rule(id: String, owner: String, now: Int64 = WallClock.system.now) throws(Failure) -> AlertRule {
        let exchangeText = exchange?.trimmingCharacters(in: .whitespaces) ?? ""
        guard let venue = exchangeText.isEmpty ? Exchange.default : Exchange(name: exchangeText) else {
            throw Failure(.inputBadExchange, ["names": Exchange.names])
        }
        let target = AlertTarget(name: market)
        guard let marketID = target?.market ?? MarketID(market.trimmingCharacters(in: .whitespaces).uppercased()) else {
            throw Failure(.inputBadMarket)
        }
        guard let kind = AlertKind(rawValue: type) else { throw Failure(.alertBadType) }
        if let target, !target.takes(kind) { throw Failure(target == .portfolio ? .alertBadPortfolioTarget : .alertBadTarget) }
        let value: Decimal
        var window: Int?
        var signal: IndicatorSignal?
        switch kind {
        case .above, .below:
            guard let text = price, let p = InputBounds.decimal(text, max: InputBounds.maxAmount) else { throw Failure(.alertBadPrice) }
            value = p
        case .move:
            guard let text = percent, let p = PortfolioLedger.decimal(text), p > 0, p <= 1_000 else {
                throw Failure(.alertBadMovePercent)
            }
            let minutes = windowMinutes ?? 10
            guard (1...1_440).contains(minutes) else { throw Failure(.alertBadWindow) }
            value = p
            window = minutes
        case .premiumAbove, .premiumBelow:
            // A wide rule's premium reads the KRW markets of its list.
            guard marketID.quote == "KRW" || target != nil else { throw Failure(.alertPremiumNeedsKRW) }
            guard let text = percent?.trimmingCharacters(in: .whitespaces), let p = Self.signedDecimal(text), abs(p) <= 100 else {
                throw Failure(.alertBadPremiumPercent)
            }
            value = p
        case .indicator:
            (signal, window) = try indicatorTerms()
            value = 0
        case .strengthAbove, .strengthBelow:
            guard let text = percent, let p = PortfolioLedger.decimal(text), p > 0, p <= 10_000 else { throw Failure(.alertBadStrength) }
            value = p
        case .pnlAbove, .pnlBelow:
            guard let text = percent?.trimmingCharacters(in: .whitespaces), let p = Self.signedDecimal(text), p >= -100, p <= 10_000 else {
                throw Failure(.alertBadPnlPercent)
            }
            value = p
        case .pnlAmountAbove, .pnlAmountBelow:
            guard let text = amount?.trimmingCharacters(in: .whitespaces), let a = Self.signedDecimal(text), abs(a) <= InputBounds.maxAmount else {
                throw Failure(.alertBadAmount)
            }
            value = a
        case .volumeSpike:
            guard let text = factor, let k = PortfolioLedger.decimal(text), k >= 1, k <= 1_000 else { throw Failure(.alertBadFactor) }
            let minutes = windowMinutes ?? 5
            guard (1...60).contains(minutes) else { throw Failure(.alertBadSpikeWindow) }
            value = k
            window = minutes
        }
        let (globalVenue, hold) = try premiumTerms(kind, marketID)
        let cooldown = cooldownSeconds ?? (recurring == true ? 600 : 0)
        guard (0...86_400 * 7).contains(cooldown) else { throw Failure(.alertBadCooldown) }
        return AlertRule(
            id: id,
            owner: owner,
            exchange: venue,
            market: marketID,
            kind: kind,
            value: value,
            windowMinutes: window,
            venue: globalVenue,
            holdMinutes: hold,
            indicator: signal,
            target: target,
            recurring: recurring ?? false,
            cooldownSeconds: cooldown,
            enabled: enabled ?? true,
            createdAt: now
        )
    }

    /// A premium rule's venue and hold, checked: only premium rules have them, 테더 김프 (KRW-USDT,
    /// against the official rate) has no venue, and a hold is 1…1440 minutes.
    private func premiumTerms(_ kind: AlertKind, _ market: MarketID) throws(Failure) -> (GlobalVenue?, Int?) {
        let venueText = venue?.trimmingCharacters(in: .whitespaces) ?? ""
        guard kind == .premiumAbove || kind == .premiumBelow else {
            guard venueText.isEmpty, holdMinutes == nil else { throw Failure(.alertTermsNeedPremium) }
            return (nil, nil)
        }
        var globalVenue: GlobalVenue?
        if !venueText.isEmpty {
            guard let named = GlobalVenue(name: venueText) else { throw Failure(.alertBadVenue, ["names": GlobalVenue.names]) }
            guard market.base != "USDT" || named == .binance else { throw Failure(.alertTetherHasNoVenue) }
            globalVenue = market.base == "USDT" ? nil : named
        }
        if let holdMinutes, !(1...1_440).contains(holdMinutes) { throw Failure(.alertBadHold) }
        return (globalVenue, holdMinutes)
    }

    /// An indicator rule's signal and interval, checked.
    private func indicatorTerms() throws(Failure) -> (IndicatorSignal, Int) {
        let name = indicator?.trimmingCharacters(in: .whitespaces) ?? ""
        let code: String =
            switch name {
            case "rsiAbove": "rsiAbove:\(IndicatorSignal.text(level ?? 70))"
            case "rsiBelow": "rsiBelow:\(IndicatorSignal.text(level ?? 30))"
            case "maCrossUp", "maCrossDown": "\(name):\(fast ?? 5):\(slow ?? 20)"
            default: name
            }
        // Two averages in the wrong order are a refusal of their own: it says which must be smaller.
        let (short, long) = (fast ?? 5, slow ?? 20)
        if name.hasPrefix("maCross"), short >= long, (1...120).contains(short), (2...120).contains(long) { throw Failure(.alertBadAverageOrder) }
        guard let signal = IndicatorSignal(code: code) else { throw Failure(.alertBadIndicator) }
        guard let minutes = IndicatorSignal.intervalMinutes(interval?.trimmingCharacters(in: .whitespaces) ?? "1h") else {
            throw Failure(.alertBadInterval)
        }
        return (signal, minutes)
    }

    /// A decimal with an optional leading minus (a premium may be negative).
    static func signedDecimal(_ typed: String) -> Decimal? {
        guard let text = TypedNumber.plain(typed) else { return nil }
        if text.hasPrefix("-") { return PortfolioLedger.decimal(String(text.dropFirst())).map { -$0 } }
        return PortfolioLedger.decimal(text)
    }
}

/// A rule as the API and `sise alerts list --json` print it: `price` for above/below, `factor`
/// for a volume spike, `percent` otherwise, as decimal strings (and `windowMinutes` for a move
/// or a spike); `description` in words.
public struct AlertRuleJSON: Encodable, Sendable {
    public var id: String
    public var exchange: String
    public var market: String
    /// A wide rule's list (`favorites`, `holdings`; its `market` reads the same); null for a rule on one market.
    public var target: String?
    public var type: String
    public var price: String?
    public var percent: String?
    public var factor: String?
    /// A P&L amount line's KRW; null otherwise.
    public var amount: String?
    public var windowMinutes: Int?
    /// An indicator rule's signal (`rsiAbove` …), RSI level, averages and interval (`1h`); null otherwise.
    public var indicator: String?
    public var level: Double?
    public var fast: Int?
    public var slow: Int?
    public var interval: String?
    /// A premium rule's venue (`binance` unless it names another); null for other rules and 테더 김프.
    public var venue: String?
    public var holdMinutes: Int?
    public var recurring: Bool
    public var cooldownSeconds: Int
    public var enabled: Bool
    public var createdAt: Int64
    public var lastFiredAt: Int64?
    public var description: String
    /// An indicator rule still waiting for its candles (준비 중): it fires from the first close after.
    public var preparing: Bool
    /// Markets of a wide rule's list left unwatched by the owner's bound on rule × market pairs.
    public var unwatched: Int

    public init(_ rule: AlertRule, language: Language, preparing: Bool = false, unwatched: Int = 0) {
        self.preparing = preparing
        self.unwatched = unwatched
        id = rule.id
        exchange = rule.exchange.rawValue
        market = rule.market.code
        target = rule.target?.rawValue
        type = rule.kind.rawValue
        let text = PortfolioLedger.text(rule.value)
        price = rule.kind == .above || rule.kind == .below ? text : nil
        factor = rule.kind == .volumeSpike ? text : nil
        amount = rule.kind == .pnlAmountAbove || rule.kind == .pnlAmountBelow ? text : nil
        percent = price == nil && factor == nil && amount == nil && rule.kind != .indicator ? text : nil
        indicator = rule.indicator?.name
        interval = rule.kind == .indicator ? rule.windowMinutes.flatMap(IndicatorSignal.intervalName) : nil
        switch rule.indicator {
        case .rsiAbove(let value)?, .rsiBelow(let value)?: level = value
        case .maCrossUp(let f, let s)?, .maCrossDown(let f, let s)?: (fast, slow) = (f, s)
        default: break
        }
        windowMinutes = rule.kind == .indicator ? nil : rule.windowMinutes
        venue = rule.premiumVenue?.rawValue
        holdMinutes = rule.holdMinutes
        recurring = rule.recurring
        cooldownSeconds = rule.cooldownSeconds
        enabled = rule.enabled
        createdAt = rule.createdAt
        lastFiredAt = rule.lastFiredAt
        description = rule.describe(language)
    }

    enum Keys: String, CodingKey {
        case indicator, level, fast, slow, interval
        case amount
        case id, exchange, market, target, type, price, percent, factor, windowMinutes, venue, holdMinutes, recurring, cooldownSeconds, enabled,
            createdAt
        case lastFiredAt, description, preparing, unwatched
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(id, forKey: .id)
        try c.encode(exchange, forKey: .exchange)
        try c.encode(market, forKey: .market)
        try c.encode(target, forKey: .target)
        try c.encode(type, forKey: .type)
        try c.encode(price, forKey: .price)
        try c.encode(percent, forKey: .percent)
        try c.encode(factor, forKey: .factor)
        try c.encode(amount, forKey: .amount)
        try c.encode(indicator, forKey: .indicator)
        try c.encode(level, forKey: .level)
        try c.encode(fast, forKey: .fast)
        try c.encode(slow, forKey: .slow)
        try c.encode(interval, forKey: .interval)
        try c.encode(windowMinutes, forKey: .windowMinutes)
        try c.encode(venue, forKey: .venue)
        try c.encode(holdMinutes, forKey: .holdMinutes)
        try c.encode(recurring, forKey: .recurring)
        try c.encode(cooldownSeconds, forKey: .cooldownSeconds)
        try c.encode(enabled, forKey: .enabled)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(lastFiredAt, forKey: .lastFiredAt)
        try c.encode(description, forKey: .description)
        try c.encode(preparing, forKey: .preparing)
        try c.encode(unwatched, forKey: .unwatched)
    }
}
