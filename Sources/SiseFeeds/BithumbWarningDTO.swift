import Foundation
import SiseCore

/// A row of Bithumb's `/v1/market/virtual_asset_warning`: `{market, warning_type,
/// warning_step, end_date}`. Steps are `CAUTION`, `WARNING`, `DANGER`; the types are the
/// reasons (`PRICE_SUDDEN_FLUCTUATION`, …).
struct BithumbWarningDTO: Decodable {
    var market: String
    var warning_type: String?
    var warning_step: String?
    /// KST wall time, `2026-07-31 06:59:59`.
    var end_date: String?

    /// The markets with their reasons as 주의 cautions; a `WARNING` or `DANGER` step is the
    /// serious flag (유의) as well.
    static func apply(_ alerts: [BithumbWarningDTO], to markets: [Market]) -> [Market] {
        var reasons: [MarketID: Set<String>] = [:]
        var serious: Set<MarketID> = []
        var levels: [MarketID: CautionLevel] = [:]
        var ends: [MarketID: Int64] = [:]
        for alert in alerts {
            guard let id = MarketID(alert.market) else { continue }
            if let type = alert.warning_type, !type.isEmpty, type.utf8.count <= 64 { reasons[id, default: []].insert(type) }
            if ["WARNING", "DANGER"].contains(alert.warning_step?.uppercased() ?? "") { serious.insert(id) }
            // One row per reason: the market's grade is its highest step, its end the latest.
            if let level = alert.warning_step.flatMap(CautionLevel.init(name:)) { levels[id] = max(levels[id] ?? level, level) }
            if let end = alert.end_date.flatMap(KSTText.epoch(wallTime:)) { ends[id] = max(ends[id] ?? end, end) }
        }
        return markets.map { market in
            guard reasons[market.id] != nil || serious.contains(market.id) else { return market }
            return Market(
                id: market.id,
                koreanName: market.koreanName,
                englishName: market.englishName,
                warning: market.warning || serious.contains(market.id),
                cautions: Array(Set(market.cautions).union(reasons[market.id] ?? [])).sorted(),
                cautionLevel: levels[market.id],
                cautionUntil: ends[market.id]
            )
        }
    }
}
