import Foundation

/// Orders board rows. Every comparison ends with the displayed name and then the market code,
/// so equal values never swap places between updates (rows never jitter).
///
/// Sorting runs on every live batch for every distinct view, so it sorts small keys (a number,
/// a name, an index) rather than whole rows; names are lowercased once each, and only when the
/// sort is by name (other sorts compare names only on a tie, which is rare).
public enum MarketSorter {
    private struct SortItem {
        /// nil only for an unknown premium: it sorts last in either direction.
        let number: Double?
        let name: String
        let lowered: [UInt32]?
        let code: String
        let index: Int
    }

    /// - Parameter premium: each row's kimchi premium, for `sort=premium`.
    public static func sorted(_ rows: [MarketRow], by state: SortState, language: Language = .ko,
                              premium: PremiumInputs = .none) -> [MarketRow] {
        let effective = state.direction == .none ? SortState(key: .value, direction: .descending) : state
        let ascending = effective.direction == .ascending
        let items = rows.enumerated().map { index, row in
            let name = row.market.name(in: language)
            return SortItem(number: effective.key == .premium ? premium.premium(row) : number(row, effective.key), name: name,
                            lowered: effective.key == .name ? lowered(name) : nil, code: row.id.code, index: index)
        }
        let ordered = items.sorted { a, b in
            if effective.key == .name {
                let order = compare(a, b)
                if order != 0 { return ascending ? order < 0 : order > 0 }
            } else if a.number != b.number {
                guard let x = a.number else { return false }
                guard let y = b.number else { return true }
                return ascending ? x < y : x > y
            }
            let byName = compare(a, b)
            if byName != 0 { return byName < 0 }
            return a.code < b.code
        }
        return ordered.map { rows[$0.index] }
    }

    private static func lowered(_ name: String) -> [UInt32] {
        name.lowercased().unicodeScalars.map(\.value)
    }

    private static func number(_ row: MarketRow, _ key: SortKey) -> Double {
        switch key {
        case .name: 0
        case .price: row.ticker.price
        case .change: row.ticker.signedChangeRate
        case .value: row.ticker.tradeValue24h
        case .premium: 0
        }
    }

    /// Locale-independent: Hangul syllables are encoded in 가나다 order, Latin is compared
    /// case-insensitively, so the order is the same on every machine.
    private static func compare(_ a: SortItem, _ b: SortItem) -> Int {
        let x = a.lowered ?? lowered(a.name), y = b.lowered ?? lowered(b.name)
        if x != y {
            return x.lexicographicallyPrecedes(y) ? -1 : 1
        }
        return a.name == b.name ? 0 : (a.name < b.name ? -1 : 1)
    }
}
