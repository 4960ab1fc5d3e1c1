/// A coin's designation on one exchange at one time, however its markets carry it: 유의 (the
/// serious one), a caution's grade and its reasons. Stored as one line so a change is a compare.
public struct MarketFlag: Sendable, Equatable, Hashable {
    public var warning: Bool
    public var level: CautionLevel?
    /// The reasons' keys, sorted, each once.
    public var reasons: [String]

    public init(warning: Bool = false, level: CautionLevel? = nil, reasons: [String] = []) {
        self.warning = warning
        self.level = level
        self.reasons = Array(Set(reasons.map(Self.key))).filter { !$0.isEmpty }.sorted()
    }

    /// The coin's flag across its markets (KRW, BTC, USDT): any warning, the highest grade, every reason.
    public init(markets: [Market]) {
        self.init(
            warning: markets.contains { $0.warning },
            level: markets.compactMap(\.cautionLevel).max(),
            reasons: markets.flatMap(\.cautions)
        )
    }

    public var isClear: Bool { !warning && level == nil && reasons.isEmpty }

    /// `W|caution|A,B`; empty when clear.
    public var encoded: String {
        isClear ? "" : [warning ? "W" : "", level?.rawValue ?? "", reasons.joined(separator: ",")].joined(separator: "|")
    }

    public init(encoded: String) {
        let parts = encoded.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        self.init(
            warning: parts.first == "W",
            level: parts.count > 1 ? CautionLevel(rawValue: parts[1]) : nil,
            reasons: parts.count > 2 ? parts[2].split(separator: ",").map(String.init) : []
        )
    }

    /// The grade in full words: 유의 outranks any step; a caution without one is 주의.
    public func grade(_ language: Language) -> String? {
        if warning { return UIText.warningLong(language) }
        switch level {
        case .caution: return EventText.eventGradeCaution(language)
        case .warning: return EventText.eventGradeAlert(language)
        case .danger: return EventText.eventGradeDanger(language)
        case nil: return reasons.isEmpty ? nil : EventText.eventGradeCaution(language)
        }
    }

    /// The reasons in words, each once (`거래량 급등, 입금량 급등`); empty when none.
    public func reasonWords(_ language: Language) -> String {
        var seen: Set<String> = []
        return reasons.map { CautionWords.text($0, language) }.filter { seen.insert($0).inserted }.joined(separator: ", ")
    }

    /// Letters, digits and `_` only, at most 40 (a key is stored in a `|`/`,` separated line).
    private static func key(_ raw: String) -> String {
        String(raw.uppercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }.prefix(40))
    }
}
