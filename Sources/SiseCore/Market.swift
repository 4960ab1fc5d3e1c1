import Foundation

/// A tradable pair as listed by the exchange, with its names and its warning designations.
public struct Market: Hashable, Sendable {
    public let id: MarketID
    public let koreanName: String
    public let englishName: String
    /// 유의 종목 (investment warning): the serious flag; such pairs are candidates for delisting.
    public let warning: Bool
    /// 주의 종목 (caution) reasons that are currently set, e.g. `GLOBAL_PRICE_DIFFERENCES`
    /// (`CautionWords` says them in words).
    public let cautions: [String]
    /// How serious the caution is, where the exchange grades it (Bithumb's steps, Korbit's level).
    public let cautionLevel: CautionLevel?
    /// When the caution is set to end (epoch ms), where the exchange says.
    public let cautionUntil: Int64?
    /// Whether the flags above are the exchange's word: false when the list they come from
    /// (Bithumb's warnings, Korbit's market alerts) could not be read this time — then no flag
    /// is known, and nothing may be concluded from their absence.
    public let flagsKnown: Bool

    public init(
        id: MarketID,
        koreanName: String,
        englishName: String,
        warning: Bool = false,
        cautions: [String] = [],
        cautionLevel: CautionLevel? = nil,
        cautionUntil: Int64? = nil,
        flagsKnown: Bool = true
    ) {
        self.flagsKnown = flagsKnown
        self.id = id
        self.koreanName = koreanName
        self.englishName = englishName
        self.warning = warning
        self.cautions = cautions
        self.cautionLevel = cautionLevel
        self.cautionUntil = cautionUntil
    }

    /// The same market under names another exchange gives (every other field kept: its flags and
    /// whether they were read).
    public func renamed(korean: String, english: String) -> Market { copy(korean: korean, english: english, flagsKnown: flagsKnown) }

    /// The same market, its flags not read this time (what they say is kept for the eye).
    public var flagsUnknown: Market { copy(korean: koreanName, english: englishName, flagsKnown: false) }

    private func copy(korean: String, english: String, flagsKnown: Bool) -> Market {
        Market(
            id: id,
            koreanName: korean,
            englishName: english,
            warning: warning,
            cautions: cautions,
            cautionLevel: cautionLevel,
            cautionUntil: cautionUntil,
            flagsKnown: flagsKnown
        )
    }

    /// Whether `other` carries the same flags (warning, cautions, grade).
    public func sameFlags(as other: Market) -> Bool {
        warning == other.warning && Set(cautions) == Set(other.cautions) && cautionLevel == other.cautionLevel
    }

    /// A list read between two readings of the flags kept apart from it (Bithumb's warnings,
    /// Korbit's market alerts): `first` and `second` are the same markets, in order, each with one
    /// reading's flags. A market the two readings disagree on changed while it was read — listed
    /// or delisted between the list and its flags, say — so its flags are unknown this time, never
    /// half of a change read as a flag set or lifted.
    public static func agreeing(_ first: [Market], _ second: [Market]) -> [Market] {
        zip(first, second).map { $0.sameFlags(as: $1) ? $0 : $0.flagsUnknown }
    }

    public var symbol: String { id.base }
    public var isCaution: Bool { !cautions.isEmpty }

    /// The name to show in the given language; falls back to the other name when one is empty.
    public func name(in language: Language) -> String {
        switch language {
        case .ko: koreanName.isEmpty ? englishName : koreanName
        case .en: englishName.isEmpty ? koreanName : englishName
        }
    }
}
