import Foundation

/// Where a coin's global (USDT) price comes from.
public enum GlobalPriceSource: String, Sendable, Codable, CaseIterable {
    /// Binance spot `<SYMBOL>USDT`, live.
    case binance
    /// CoinGecko's USD price, for coins Binance does not list.
    case coingecko
    /// OKX's and Bybit's spot `<SYMBOL>USDT`, polled (the board's 김프 column when the person
    /// chooses them).
    case okx, bybit

    /// The source of a global venue's prices.
    public init(_ venue: GlobalVenue) {
        switch venue {
        case .binance: self = .binance
        case .okx: self = .okx
        case .bybit: self = .bybit
        }
    }
}

/// Where the KRW-per-USD rate comes from (`--fx`).
public enum FXSource: String, Sendable, Codable, CaseIterable {
    /// Upbit's live `KRW-USDT` (the default: no extra dependency).
    case upbitUSDT = "upbit-usdt"
    /// Dunamu's bank reference rate (Hana Bank), cached for minutes.
    case dunamu
    /// CoinGecko's `/exchange_rates`.
    case coingecko
    /// Korea Eximbank's daily reference rate (매매기준율), with a key (`--exim-key`).
    case eximbank

    /// The exchange whose `KRW-USDT` is the rate, when the source is one.
    public var exchange: Exchange? { self == .upbitUSDT ? .upbit : nil }

    /// What a premium against this rate measures: the dollar's official rate, or USDT's price in
    /// Korea (which carries USDT's own premium, 테더 김프).
    public var basis: FXBasis { self == .upbitUSDT ? .usdt : .official }

    /// The source as a person names it (`Upbit USDT`, `하나은행 고시`); the raw value is the
    /// scripts' (`--fx`, `/api/status`).
    public func displayName(_ language: Language) -> String {
        switch self {
        case .upbitUSDT: "Upbit USDT"
        case .dunamu: UIText.fxSourceBank(language)
        case .coingecko: "CoinGecko"
        case .eximbank: UIText.fxSourceExim(language)
        }
    }
}

/// The two meanings of a premium's rate: USD/KRW as banks post it, or KRW-USDT as it trades.
public enum FXBasis: String, Sendable, Codable, CaseIterable {
    case official
    case usdt

    public func displayName(_ language: Language) -> String {
        switch self {
        case .official: UIText.fxBasisOfficial(language)
        case .usdt: UIText.fxBasisUSDT(language)
        }
    }
}

/// A coin's price abroad in USD(T), when it was seen and where.
public struct GlobalQuote: Hashable, Sendable {
    public var price: Double
    /// Epoch ms.
    public var at: Int64
    public var source: GlobalPriceSource

    public init(price: Double, at: Int64, source: GlobalPriceSource) {
        self.price = price
        self.at = at
        self.source = source
    }
}

/// KRW per USD, when it was seen and where.
public struct FXQuote: Hashable, Sendable {
    public var krwPerUSD: Double
    /// Epoch ms.
    public var at: Int64
    public var source: FXSource

    public init(krwPerUSD: Double, at: Int64, source: FXSource) {
        self.krwPerUSD = krwPerUSD
        self.at = at
        self.source = source
    }
}

/// The kimchi premium (김프), decided once:
/// `premium = krwPrice / (globalUsdtPrice × usdKrw) − 1`, a signed fraction like `changeRate`.
/// Nil when an input is missing, not a positive finite number, or older than its bound —
/// never a made-up number.
public enum KimchiPremium {
    /// The formula itself.
    public static func premium(krwPrice: Double, globalPrice: Double, krwPerUSD: Double) -> Double? {
        guard krwPrice.isFinite, globalPrice.isFinite, krwPerUSD.isFinite, krwPrice > 0, globalPrice > 0, krwPerUSD > 0 else { return nil }
        let value = krwPrice / (globalPrice * krwPerUSD) - 1
        return value.isFinite ? value : nil
    }

    /// How old an input may be (ms): a live stream a few beats, polled sources their period.
    public static func bound(_ source: GlobalPriceSource) -> Int64 {
        switch source {
        case .binance, .okx, .bybit: 30_000
        case .coingecko: 600_000
        }
    }

    public static func bound(_ source: FXSource) -> Int64 {
        switch source {
        case .upbitUSDT: 60_000
        // Banks post rates in business hours: a Friday's rate serves the weekend.
        case .dunamu: 3 * 86_400_000
        case .coingecko: 1_800_000
        // Posted once a business day; the walk back covers a week of holidays.
        case .eximbank: 8 * 86_400_000
        }
    }

    /// The premium of a KRW price given the inputs seen, at `now` (epoch ms).
    public static func premium(krwPrice: Double, global: GlobalQuote?, fx: FXQuote?, now: Int64) -> Double? {
        guard let global, let fx, now - global.at <= bound(global.source), now - fx.at <= bound(fx.source) else { return nil }
        return premium(krwPrice: krwPrice, globalPrice: global.price, krwPerUSD: fx.krwPerUSD)
    }

    /// The market's 김프: the median premium of the `count` KRW coins with the most trade value
    /// that have one; nil when none has. USDT is not one of them: its premium is 테더 김프, against
    /// another rate.
    public static func marketPremium(_ rows: [MarketRow], premium: (MarketRow) -> Double?, count: Int = 20) -> Double? {
        let values = rows.filter { $0.id.quote == "KRW" && $0.id.base != "USDT" }
            .sorted { $0.ticker.tradeValue24h > $1.ticker.tradeValue24h }
            .lazy.compactMap(premium).prefix(count)
        return median(Array(values))
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// The inputs of every premium at one moment: each symbol's global quote and the FX rate.
/// Faces ask it for a KRW row's premium; it answers nil for anything but a KRW market.
public struct PremiumInputs: Sendable {
    public var global: [String: GlobalQuote]
    public var fx: FXQuote?
    /// Epoch ms the staleness bounds are judged at.
    public var now: Int64
    /// How the rate was decided (nil: given directly, as tests do).
    public var decision: FXDecision?
    /// The official USD/KRW: KRW-USDT's premium (테더 김프) is measured against it.
    public var official: FXQuote?

    public init(global: [String: GlobalQuote] = [:], fx: FXQuote? = nil, now: Int64 = 0, decision: FXDecision? = nil, official: FXQuote? = nil) {
        self.global = global
        self.fx = fx
        self.now = now
        self.decision = decision
        self.official = official
    }

    public static let none = PremiumInputs()

    /// These inputs with the venue's own prices alone: CoinGecko's stand-ins (coins the venue does
    /// not list) left out. Every premium shown under a venue's name — a board's 김프 column on every
    /// face, its sort and bar, compare, the ranking — reads these, so it has a figure exactly where
    /// the premium matrix's cell has one; a stand-in appears only where its row names CoinGecko
    /// (`globalSource` in the premium table).
    public var withoutStandIns: PremiumInputs {
        var own = self
        own.global = global.filter { $0.value.source != .coingecko }
        return own
    }

    /// A KRW row's premium; KRW-USDT's is 테더 김프 (USDT over the official dollar), so its column,
    /// its sort and its alerts read the same figure as `/api/premium/usdt`.
    public func premium(_ row: MarketRow) -> Double? {
        guard row.id.quote == "KRW" else { return nil }
        if row.id.base == "USDT" {
            guard let official, official.source.basis == .official, FXPlan.usable(official, now: now) else { return nil }
            return KimchiPremium.premium(krwPrice: row.ticker.price, globalPrice: 1, krwPerUSD: official.krwPerUSD)
        }
        return KimchiPremium.premium(krwPrice: row.ticker.price, global: global[row.id.base], fx: fx, now: now)
    }
}

/// One row of the premium table — `sise premium --json` rows are exactly these keys, and
/// `GET /api/premium` rows the same: numbers as JSON numbers, `null` when unknown.
public struct PremiumRowJSON: Encodable, Sendable, Hashable {
    public var symbol: String
    public var exchange: Exchange
    public var krwPrice: Double
    public var globalPrice: Double?
    public var globalSource: GlobalPriceSource?
    public var fx: Double?
    /// The source asked for (`--fx`).
    public var fxSource: FXSource
    public var premium: Double?
    /// The source whose rate `fx` is: `fxSource`, or a stand-in when `fxFallback`.
    public var fxUsed: FXSource?
    public var fxFallback: Bool

    /// The row of a KRW board row, given the inputs and the configured rate source.
    public init(_ row: MarketRow, inputs: PremiumInputs, fxSource: FXSource) {
        symbol = row.id.base
        exchange = row.exchange
        krwPrice = row.ticker.price
        let global = inputs.global[row.id.base]
        globalPrice = global?.price
        globalSource = global?.source
        fx = inputs.fx?.krwPerUSD
        self.fxSource = fxSource
        premium = inputs.premium(row)
        fxUsed = inputs.fx?.source
        fxFallback = inputs.fx.map { $0.source != fxSource } ?? false
    }

    enum Keys: String, CodingKey { case symbol, exchange, krwPrice, globalPrice, globalSource, fx, fxSource, premium, fxUsed, fxFallback }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(symbol, forKey: .symbol)
        try c.encode(exchange, forKey: .exchange)
        try c.encode(krwPrice, forKey: .krwPrice)
        try c.encode(globalPrice, forKey: .globalPrice)
        try c.encode(globalSource, forKey: .globalSource)
        try c.encode(fx, forKey: .fx)
        try c.encode(fxSource, forKey: .fxSource)
        try c.encode(premium, forKey: .premium)
        try c.encode(fxUsed, forKey: .fxUsed)
        try c.encode(fxFallback, forKey: .fxFallback)
    }
}

extension PremiumInputs {
    /// Why premiums are unknown right now (nil when they can be computed): the words a face
    /// shows beside the column.
    public func unavailableReason(_ language: Language) -> String? {
        if let decision, let reason = decision.unavailableReason(language) { return reason }
        guard let fx else { return UIText.premiumUnavailable(language, ["reason": "FX"]) }
        if now - fx.at > KimchiPremium.bound(fx.source) {
            return UIText.premiumUnavailable(language, ["reason": UIText.fxLabel(language) + " " + fx.source.displayName(language)])
        }
        let fresh = global.values.contains { now - $0.at <= KimchiPremium.bound($0.source) }
        return fresh ? nil : UIText.premiumUnavailable(language, ["reason": UIText.globalSourceBinance(language)])
    }

    /// `해외 바이낸스 · 환율 하나은행 고시 1,394.5 · 3시간 전 기준 · 하나은행 고시 실패, …`: the sources
    /// beside every premium — the rate's age where it is not live, and a stand-in named as one.
    /// `venue`: the global venue these inputs price against (the board's 김프 basis).
    public func sourceLabel(_ language: Language, fxSource: FXSource, venue: GlobalVenue = .binance) -> String {
        let rate = fx.map { NumberText.grouped($0.krwPerUSD, decimals: $0.krwPerUSD >= 100 ? 1 : 4) } ?? "-"
        var label = UIText.premiumSource(
            language,
            [
                "global": venue == .binance ? UIText.globalSourceBinance(language) : venue.displayName,
                "fx": (fx?.source ?? fxSource).displayName(language),
                "rate": rate,
            ]
        )
        if let fx, now - fx.at >= 60_000 { label += " · " + UIText.fxAge(language, ["age": AgeText.short(now - fx.at, language)]) }
        if let fallback = decision?.fallbackText(language) { label += " · " + fallback }
        return label
    }
}
