import Foundation
import SiseCore

/// Korbit's `GET /v2/marketAlerts`: only pairs with an active alert, `{symbol, alerts[{type,
/// level?, startAt, endAt, value}]}` (types `price`, `limit_buy_range`, `concentration`, …; level
/// `danger` where given; times epoch ms).
struct KorbitMarketAlertDTO: Decodable {
    struct Alert: Decodable {
        var type: String
        var level: String?
        var endAt: Int64?
    }

    var symbol: String
    var alerts: [Alert]?

    /// Each pair's reasons (upper-cased types), its highest level and its latest end.
    static func cautions(_ rows: [KorbitMarketAlertDTO]) -> [MarketID: (reasons: [String], level: CautionLevel?, until: Int64?)] {
        var out: [MarketID: (reasons: [String], level: CautionLevel?, until: Int64?)] = [:]
        for row in rows {
            guard let id = KorbitSymbol.market(row.symbol), let alerts = row.alerts, !alerts.isEmpty else { continue }
            let reasons = Array(Set(alerts.map { $0.type.uppercased() }.filter { !$0.isEmpty && $0.utf8.count <= 64 })).sorted()
            let level = alerts.compactMap { $0.level.flatMap(CautionLevel.init(name:)) }.max()
            let until = alerts.compactMap(\.endAt).filter { $0 > 0 }.max()
            out[id] = (reasons, level, until)
        }
        return out
    }
}
