import Foundation

/// A caution's grade where the exchange gives one: Bithumb's `CAUTION` < `WARNING` < `DANGER`
/// (경보제 steps), Korbit's `danger` (투자위험).
public enum CautionLevel: String, Sendable, Codable, Comparable, CaseIterable {
    case caution, warning, danger

    /// `CAUTION`, `warning`, `Danger` …; nil for anything else.
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased())
    }

    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a) ?? 0 < allCases.firstIndex(of: b) ?? 0 }

    /// The step in words, as the board's mark shows it (`주의`, `경고`, `위험`).
    public func word(_ language: Language) -> String {
        switch self {
        case .caution: UIText.caution(language)
        case .warning: UIText.cautionStepWarning(language)
        case .danger: UIText.cautionStepDanger(language)
        }
    }
}

/// The exchanges' caution reasons in words: Upbit's five `market_event.caution` keys, Bithumb's
/// `warning_type`s, Korbit's alert types. An unknown key is said as itself (letters, digits and
/// `_` only, at most 40), never dropped.
public enum CautionWords {
    public static func text(_ key: String, _ language: Language) -> String {
        let words: (String, String)? =
            switch key.uppercased() {
            case "PRICE_FLUCTUATIONS", "PRICE_SUDDEN_FLUCTUATION", "PRICE": ("가격 급등락", "price swings")
            case "TRADING_VOLUME_SOARING", "TRADING_VOLUME_SUDDEN_FLUCTUATION": ("거래량 급등", "trading volume surge")
            case "DEPOSIT_AMOUNT_SOARING", "DEPOSIT_AMOUNT_SUDDEN_FLUCTUATION": ("입금량 급등", "deposit surge")
            case "GLOBAL_PRICE_DIFFERENCES", "PRICE_DIFFERENCE_HIGH": ("해외 시세와 차이", "gap to global prices")
            case "CONCENTRATION_OF_SMALL_ACCOUNTS", "SPECIFIC_ACCOUNT_HIGH_TRANSACTION": ("소수 계정 거래 집중", "trading concentrated in few accounts")
            case "EXCHANGE_TRADING_CONCENTRATION", "CONCENTRATION": ("거래소 거래 집중", "trading concentrated on this exchange")
            case "LIMIT_BUY_RANGE": ("주문 가격 제한", "order price limits")
            default: nil
            }
        if let words { return language == .ko ? words.0 : words.1 }
        let plain = String(key.prefix(40).filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        return UIText.cautionOther(language, ["key": plain.isEmpty ? "?" : plain])
    }
}

extension Market {
    /// The caution's reasons in words, in order, each once.
    public func cautionWords(_ language: Language) -> [String] {
        var seen: Set<String> = []
        return cautions.map { CautionWords.text($0, language) }.filter { seen.insert($0).inserted }
    }

    /// The caution in one line: its grade, its reasons and its end (`경고: 거래량 급등, 입금량 급등 ·
    /// 7/31 07:04까지`); nil for none.
    public func cautionLine(_ language: Language) -> String? {
        guard isCaution else { return nil }
        var line = (cautionLevel?.word(language) ?? UIText.caution(language)) + ": " + cautionWords(language).joined(separator: ", ")
        if let cautionUntil { line += " · " + UIText.cautionUntil(language, ["time": KSTText.timestamp(cautionUntil)]) }
        return line
    }
}
