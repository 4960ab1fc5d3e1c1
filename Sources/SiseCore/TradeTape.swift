/// A market's trade tape as every face shows it: each trade once (by its identity — equal
/// timestamps happen), newest first, at most `limit`.
public enum TradeTape {
    public static let limit = 50

    /// 체결강도: the takers' buy volume over their sell volume, as a percent (nil without sells).
    public static func strength(_ trades: [Trade]) -> Double? {
        let bought = trades.filter { $0.side == .bid }.reduce(0) { $0 + $1.volume }
        let sold = trades.filter { $0.side == .ask }.reduce(0) { $0 + $1.volume }
        return sold > 0 ? bought / sold * 100 : nil
    }

    /// 체결강도 as every face writes it: `123.45%`.
    public static func strengthText(_ percent: Double) -> String {
        NumberText.grouped(percent, decimals: 2) + "%"
    }

    public static func newestFirst(_ trades: [Trade], limit: Int = TradeTape.limit) -> [Trade] {
        var seen = Set<Int64>()
        let unique = trades.filter { seen.insert($0.sequentialID).inserted }
        return Array(unique.sorted { ($0.timestamp, $0.sequentialID) > ($1.timestamp, $1.sequentialID) }.prefix(limit))
    }
}
