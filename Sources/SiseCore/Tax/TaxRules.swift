import Foundation

/// The Korean tax on virtual-asset income (가상자산소득, 기타소득, 분리과세) as the 2027 preview
/// reads it — every figure with its source in docs/tax.md and `../shared/api/tax-kr.md`.
/// An estimate, not tax advice: the preview says so on every face.
public enum TaxRules {
    /// The first taxed year: transfers on or after 2027-01-01 (소득세법 §21①27, as deferred by the
    /// December 2024 amendment).
    public static let firstYear = 2027
    /// The yearly basic deduction per person, every exchange together (기본공제 250만원).
    public static let deduction: Decimal = 2_500_000
    /// 20 % national income tax on what the deduction leaves.
    public static let rate: Decimal = Decimal(2) / 10
    /// Local income tax: 10 % of the national tax (22 % in all).
    public static let localRate: Decimal = Decimal(1) / 10
    /// The dates the rules were read, said beside every estimate.
    public static let sourcesRead = "2026-11"

    /// Korea keeps one offset the whole year (no daylight saving since 1988).
    static let kstOffsetMs: Int64 = 9 * 3_600_000

    /// 00:00 KST on 1 January of `year`, in epoch ms: where a tax year begins. The deemed price
    /// is the price at `yearStart(2027)` (2027-01-01 0시, decree §88②).
    public static func yearStart(_ year: Int) -> Int64 {
        Int64(daysFromEpoch(year: year, month: 1, day: 1)) * 86_400_000 - kstOffsetMs
    }

    /// The instant the deemed acquisition price is taken at: 2027-01-01 00:00:00 KST.
    public static var deemedInstant: Int64 { yearStart(firstYear) }

    /// The KST calendar year an instant falls in.
    public static func year(of ms: Int64) -> Int {
        var year = 1970 + Int((ms + kstOffsetMs) / 31_556_952_000)
        while yearStart(year + 1) <= ms { year += 1 }
        while yearStart(year) > ms { year -= 1 }
        return year
    }

    /// The tax `floor`ed to whole won (원 미만 버림).
    static func wholeWon(_ value: Decimal) -> Decimal {
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, 0, .down)
        return rounded
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Hinnant's civil-days arithmetic).
    static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// How the cost of what is sold is found. The decree as amended on 2025-02-28 (소득세법 시행령
/// §88①) says 총평균법 per resident; older guides say 이동평균법 (through a 가상자산사업자) or
/// 선입선출법 — kept as alternatives until the rule is settled.
public enum TaxMethod: String, CaseIterable, Codable, Sendable {
    /// Per coin and year: (opening cost + the year's purchases) ÷ (opening quantity + bought).
    case totalAverage = "total-average"
    /// The average after each purchase (the 평균매수가 the exchanges show).
    case movingAverage = "moving-average"
    /// The oldest units leave first.
    case fifo

    public static let `default` = TaxMethod.totalAverage
}

/// Units acquired without a known cost (an airdrop, a deposit from outside with no price): the
/// rules allow cost 0, or — where the cost cannot be confirmed — 50 % of the sale's proceeds as
/// the deemed cost (the 2025 decree amendment as announced).
public enum NoCostRule: String, CaseIterable, Codable, Sendable {
    case zero
    case halfOfProceeds = "half"
}
