import Foundation

/// What became of the last attempt to read one FX source.
public enum FXReading: Sendable, Equatable {
    /// A rate (`at`: when it was posted or read).
    case rate(FXQuote)
    /// The last attempt failed; the words say why.
    case failed(Words)

    public var failed: Bool { if case .failed = self { true } else { false } }
}

/// A source passed over, and why.
public struct FXPassedOver: Sendable, Equatable {
    public var source: FXSource
    public var reason: Words

    public init(source: FXSource, reason: Words) {
        self.source = source
        self.reason = reason
    }
}

/// The one rule every face follows for the rate a premium is computed at: the chosen source when
/// its last reading is a rate within its age bound, else the first stand-in whose is. Official
/// rates stand in for each other before a market's USDT does, and the official rate stands in for
/// USDT. Pure: the live feed and the one-shot commands both hand it what they read (`resolve`).
public struct FXPlan: Sendable, Equatable {
    public var chosen: FXSource
    /// The sources this setup can read: Korea Eximbank only with a key.
    public var available: Set<FXSource>

    public init(chosen: FXSource, eximbankKey: Bool) {
        self.chosen = chosen
        available = Set(FXSource.allCases.filter { $0 != .eximbank || eximbankKey || chosen == .eximbank })
    }

    /// The chosen source, then its stand-ins, in the order they are tried. CoinGecko (whose
    /// calls cost credits) is read only when chosen.
    public var order: [FXSource] {
        let candidates: [FXSource] =
            switch chosen {
            case .dunamu: [.dunamu, .eximbank, .upbitUSDT]
            case .eximbank: [.eximbank, .dunamu, .upbitUSDT]
            case .coingecko: [.coingecko, .dunamu, .eximbank, .upbitUSDT]
            case .upbitUSDT: [.upbitUSDT, .dunamu, .eximbank]
            }
        return candidates.filter(available.contains)
    }

    /// The official USD/KRW alone (테더 김프's yardstick): bank rates, never a market's USDT.
    public var officialOrder: [FXSource] {
        let banks: [FXSource] = chosen == .eximbank ? [.eximbank, .dunamu] : [.dunamu, .eximbank]
        return banks.filter(available.contains)
    }

    /// The premium's rate given the latest readings (a source missing from them was not read).
    public func decide(_ readings: [FXSource: FXReading], now: Int64) -> FXDecision {
        Self.decide(order, readings, now: now)
    }

    /// The official rate given the latest readings.
    public func official(_ readings: [FXSource: FXReading], now: Int64) -> FXDecision {
        Self.decide(officialOrder, readings, now: now)
    }

    /// Walks `order` (the plan's or the official one), asking `read` for each source's reading —
    /// a fresh one, or one held from an earlier walk — and stops at the first usable rate.
    public static func resolve(
        _ order: [FXSource],
        now: Int64,
        read: (FXSource) async -> FXReading?
    ) async -> (decision: FXDecision, readings: [FXSource: FXReading]) {
        var readings: [FXSource: FXReading] = [:]
        for source in order {
            guard let reading = await read(source) else { continue }
            readings[source] = reading
            if case .rate(let quote) = reading, usable(quote, now: now) { break }
        }
        return (decide(order, readings, now: now), readings)
    }

    /// A rate within its source's age bound, positive and finite, and not from the future.
    public static func usable(_ quote: FXQuote, now: Int64) -> Bool {
        quote.krwPerUSD.isFinite && quote.krwPerUSD > 0 && now - quote.at <= KimchiPremium.bound(quote.source) && quote.at <= now + 60_000
    }

    static func decide(_ order: [FXSource], _ readings: [FXSource: FXReading], now: Int64) -> FXDecision {
        var passed: [FXPassedOver] = []
        for source in order {
            switch readings[source] {
            case .rate(let quote)?:
                if usable(quote, now: now) { return FXDecision(chosen: order.first, quote: quote, passedOver: passed) }
                passed.append(FXPassedOver(source: source, reason: Words { UIText.fxStale($0, ["age": AgeText.short(now - quote.at, $0)]) }))
            case .failed(let reason)?:
                passed.append(FXPassedOver(source: source, reason: reason))
            case nil:
                continue
            }
        }
        return FXDecision(chosen: order.first, quote: nil, passedOver: passed)
    }
}

/// The rate a premium is computed at, and what every face says about it.
public struct FXDecision: Sendable, Equatable {
    /// The source asked for (nil: the setup has none, e.g. no official source configured).
    public var chosen: FXSource?
    /// The rate in use; nil when no source in the plan has a usable one.
    public var quote: FXQuote?
    /// Sources tried before the one in use (all of them when none is), with why.
    public var passedOver: [FXPassedOver]

    public init(chosen: FXSource?, quote: FXQuote?, passedOver: [FXPassedOver] = []) {
        self.chosen = chosen
        self.quote = quote
        self.passedOver = passedOver
    }

    /// Another source stands in for the chosen one.
    public var fallback: Bool { quote.map { $0.source != chosen } ?? false }

    /// `하나은행 고시 실패, Upbit USDT 사용 중`, when a stand-in is in use.
    public func fallbackText(_ language: Language) -> String? {
        guard fallback, let chosen, let used = quote?.source else { return nil }
        return UIText.fxFallback(language, ["source": chosen.displayName(language), "fallback": used.displayName(language)])
    }

    /// `1,394.5`: the rate as faces print it.
    public var rateText: String {
        quote.map { NumberText.grouped($0.krwPerUSD, decimals: $0.krwPerUSD >= 100 ? 1 : 4) } ?? "-"
    }

    /// `3분 전`: how old the rate in use is.
    public func ageText(_ language: Language, now: Int64) -> String? {
        quote.map { AgeText.short(now - $0.at, language) }
    }

    /// Why there is no rate: `김프 계산 불가: 환율 하나은행 고시 (HTTP 503)`; nil when there is one.
    public func unavailableReason(_ language: Language) -> String? {
        guard quote == nil else { return nil }
        let first = passedOver.first
        let source = (first?.source ?? chosen).map { " " + $0.displayName(language) } ?? ""
        let reason = first.map { " (\($0.reason(language)))" } ?? ""
        return UIText.premiumUnavailable(language, ["reason": UIText.fxLabel(language) + source + reason])
    }
}

/// How long ago, in the largest whole unit: `12초 전`, `3분 전`, `5시간 전`, `2일 전`.
public enum AgeText {
    public static func short(_ milliseconds: Int64, _ language: Language) -> String {
        let seconds = max(0, milliseconds / 1_000)
        if seconds < 60 { return UIText.ageSeconds(language, ["seconds": String(seconds)]) }
        if seconds < 3_600 { return UIText.agoMinutes(language, ["minutes": String(seconds / 60)]) }
        if seconds < 86_400 { return UIText.agoHours(language, ["hours": String(seconds / 3_600)]) }
        return UIText.agoDays(language, ["days": String(seconds / 86_400)])
    }
}
