import Foundation

/// Orders board rows. Every comparison ends with the displayed name and then the market code,
/// so equal values never swap places between updates (rows never jitter).
public enum MarketSorter {
    public static func sorted(_ rows: [MarketRow], by state: SortState,
                              language: Language = .ko) -> [MarketRow] {
        let effective = state.direction == .none ? SortState(key: .value, direction: .descending) : state
        let keyed = rows.map { (row: $0, name: $0.market.name(in: language)) }
        return keyed.sorted { a, b in
            let order = compare(a.row, b.row, key: effective.key, aName: a.name, bName: b.name)
            if order != .orderedSame {
                return effective.direction == .ascending ? order == .orderedAscending
                                                         : order == .orderedDescending
            }
            let byName = compareNames(a.name, b.name)
            if byName != .orderedSame { return byName == .orderedAscending }
            return a.row.id < b.row.id
        }.map(\.row)
    }

    private static func compare(_ a: MarketRow, _ b: MarketRow, key: SortKey,
                                aName: String, bName: String) -> ComparisonResult {
        switch key {
        case .name: compareNames(aName, bName)
        case .price: compareNumbers(a.ticker.price, b.ticker.price)
        case .change: compareNumbers(a.ticker.signedChangeRate, b.ticker.signedChangeRate)
        case .value: compareNumbers(a.ticker.tradeValue24h, b.ticker.tradeValue24h)
        }
    }

    private static func compareNumbers(_ a: Double, _ b: Double) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }

    /// Locale-independent: Hangul syllables are encoded in 가나다 order, Latin is compared
    /// case-insensitively, so the order is the same on every machine.
    static func compareNames(_ a: String, _ b: String) -> ComparisonResult {
        let la = a.lowercased(), lb = b.lowercased()
        if la != lb {
            return la.unicodeScalars.lexicographicallyPrecedes(lb.unicodeScalars, by: { $0.value < $1.value })
                ? .orderedAscending : .orderedDescending
        }
        return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
    }
}
