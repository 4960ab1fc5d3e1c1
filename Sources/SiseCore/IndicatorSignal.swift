import Foundation

/// An indicator signal an alert waits for, read on closed candles only (a candle still forming
/// never fires, so a signal never repaints): RSI crossing a level, a moving-average cross, a close
/// outside the Bollinger band. It fires on the close where it becomes true — it was not true on
/// the close before — from `Indicators`, the code the charts use.
public enum IndicatorSignal: Hashable, Sendable {
    /// RSI (14, Wilder) crosses up through the level.
    case rsiAbove(level: Double)
    /// RSI (14) crosses down through the level.
    case rsiBelow(level: Double)
    /// The fast simple moving average crosses above the slow one (golden cross).
    case maCrossUp(fast: Int, slow: Int)
    /// The fast one crosses below the slow one (dead cross).
    case maCrossDown(fast: Int, slow: Int)
    /// A close above the upper Bollinger band (20, 2σ).
    case bollingerAbove
    /// A close below the lower band.
    case bollingerBelow

    /// The names the API and the CLI take.
    public static let names = ["rsiAbove", "rsiBelow", "maCrossUp", "maCrossDown", "bollingerAbove", "bollingerBelow"]
    /// The candle intervals a signal is read on, in minutes, by their names.
    public static let intervals: [(name: String, minutes: Int)] = [("1m", 1), ("5m", 5), ("15m", 15), ("1h", 60), ("4h", 240), ("1d", 1_440)]
    public static let rsiPeriod = 14
    public static let bandPeriod = 20
    /// Closes kept per series: enough for the slowest average (at most 120) and a settled RSI.
    public static let history = 200

    public static func intervalName(_ minutes: Int) -> String? { intervals.first { $0.minutes == minutes }?.name }
    /// A candle's length as a person reads it: `15분`, `1시간`, `1일` in Korean; `15m`, `1h` in English.
    public static func intervalWords(_ minutes: Int, _ language: Language) -> String {
        guard language == .ko else { return intervalName(minutes) ?? "\(minutes)m" }
        if minutes % 1_440 == 0 { return "\(minutes / 1_440)일" }
        if minutes % 60 == 0 { return "\(minutes / 60)시간" }
        return "\(minutes)분"
    }
    public static func intervalMinutes(_ name: String) -> Int? { intervals.first { $0.name == name }?.minutes }

    /// The stored form: `rsiAbove:70`, `maCrossUp:5:20`, `bollingerBelow`.
    public var code: String {
        switch self {
        case .rsiAbove(let level): "rsiAbove:\(Self.text(level))"
        case .rsiBelow(let level): "rsiBelow:\(Self.text(level))"
        case .maCrossUp(let fast, let slow): "maCrossUp:\(fast):\(slow)"
        case .maCrossDown(let fast, let slow): "maCrossDown:\(fast):\(slow)"
        case .bollingerAbove: "bollingerAbove"
        case .bollingerBelow: "bollingerBelow"
        }
    }

    public var name: String { String(code.prefix { $0 != ":" }) }

    /// Parsed from its stored form; nil for anything else (a level 1…99, averages 2…120 with the
    /// fast one shorter).
    public init?(code: String) {
        let parts = code.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first else { return nil }
        switch (name, parts.count) {
        case ("rsiAbove", 2), ("rsiBelow", 2):
            guard let level = Double(parts[1]), level.isFinite, (1...99).contains(level) else { return nil }
            self = name == "rsiAbove" ? .rsiAbove(level: level) : .rsiBelow(level: level)
        case ("maCrossUp", 3), ("maCrossDown", 3):
            guard let fast = Int(parts[1]), let slow = Int(parts[2]), (1...119).contains(fast), (2...120).contains(slow), fast < slow else {
                return nil
            }
            self = name == "maCrossUp" ? .maCrossUp(fast: fast, slow: slow) : .maCrossDown(fast: fast, slow: slow)
        case ("bollingerAbove", 1): self = .bollingerAbove
        case ("bollingerBelow", 1): self = .bollingerBelow
        default: return nil
        }
    }

    /// The closes a first reading needs (one more than the indicator's own, to see a crossing).
    public var needs: Int {
        switch self {
        case .rsiAbove, .rsiBelow: Self.rsiPeriod + 2
        case .maCrossUp(_, let slow), .maCrossDown(_, let slow): slow + 1
        case .bollingerAbove, .bollingerBelow: Self.bandPeriod + 1
        }
    }

    /// Whether the signal fires on the last close of `closes` (oldest first): true there and not
    /// on the close before. nil while there are too few closes to say.
    public func fires(_ closes: [Double]) -> Bool? {
        guard closes.count >= needs else { return nil }
        let now = closes.count - 1
        switch self {
        case .rsiAbove(let level), .rsiBelow(let level):
            let rsi = Indicators.rsi(closes, period: Self.rsiPeriod)
            guard let before = rsi[now - 1], let after = rsi[now] else { return nil }
            if case .rsiAbove = self { return before < level && after >= level }
            return before > level && after <= level
        case .maCrossUp(let fast, let slow), .maCrossDown(let fast, let slow):
            let tail = Array(closes.suffix(slow + 1))
            let quick = Indicators.sma(tail, period: fast)
            let steady = Indicators.sma(tail, period: slow)
            guard let q0 = quick[slow - 1], let s0 = steady[slow - 1], let q1 = quick[slow], let s1 = steady[slow] else { return nil }
            if case .maCrossUp = self { return q0 <= s0 && q1 > s1 }
            return q0 >= s0 && q1 < s1
        case .bollingerAbove, .bollingerBelow:
            let tail = Array(closes.suffix(Self.bandPeriod + 1))
            let bands = Indicators.bollinger(tail, period: Self.bandPeriod)
            guard let band = bands[Self.bandPeriod] else { return nil }
            let close = tail[Self.bandPeriod]
            // The close before, against its own band when it has one (else it counts as inside).
            let before = bands[Self.bandPeriod - 1]
            let previous = tail[Self.bandPeriod - 1]
            if case .bollingerAbove = self { return close > band.upper && !(before.map { previous > $0.upper } ?? false) }
            return close < band.lower && !(before.map { previous < $0.lower } ?? false)
        }
    }

    /// The signal in words (`1h RSI crossed above 70`).
    public func describe(_ language: Language, interval minutes: Int) -> String {
        let interval = Self.intervalWords(minutes, language)
        return switch self {
        case .rsiAbove(let level): UIText.alertRuleRsiAbove(language, ["interval": interval, "level": Self.text(level)])
        case .rsiBelow(let level): UIText.alertRuleRsiBelow(language, ["interval": interval, "level": Self.text(level)])
        case .maCrossUp(let fast, let slow): UIText.alertRuleMaCrossUp(language, ["interval": interval, "fast": "\(fast)", "slow": "\(slow)"])
        case .maCrossDown(let fast, let slow): UIText.alertRuleMaCrossDown(language, ["interval": interval, "fast": "\(fast)", "slow": "\(slow)"])
        case .bollingerAbove: UIText.alertRuleBollingerAbove(language, ["interval": interval])
        case .bollingerBelow: UIText.alertRuleBollingerBelow(language, ["interval": interval])
        }
    }

    /// A level as written (`70`, `25.5`); never traps, whatever the number.
    static func text(_ level: Double) -> String {
        if level == level.rounded(), let whole = Int(exactly: level) { return String(whole) }
        return String(level)
    }
}

extension IndicatorSignal: Codable {
    /// Coded as its stored form (`rsiAbove:70`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        guard let signal = IndicatorSignal(code: code) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an indicator signal: \(code.prefix(40))")
        }
        self = signal
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }
}
