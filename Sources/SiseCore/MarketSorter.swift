import Foundation

/// Orders board rows. Every comparison ends with the displayed name and then the market code,
/// so equal values never swap places between updates (rows never jitter).
///
/// Sorting runs on every live batch for every distinct view, so what moves during the sort is a
/// plain key (a number and an index, nothing reference-counted); names are folded only when the
/// sort is by name, or lazily for the rows whose numbers tie.
public enum MarketSorter {
    private struct Entry {
        /// NaN only for an unknown premium: it sorts last in either direction.
        let number: Double
        let index: Int
    }

    /// - Parameter premium: each row's kimchi premium, for `sort=premium`.
    public static func sorted(_ rows: [MarketRow], by state: SortState, language: Language = .ko,
                              premium: PremiumInputs = .none) -> [MarketRow] {
        let effective = state.direction == .none ? SortState(key: .value, direction: .descending) : state
        let ascending = effective.direction == .ascending
        var names = NameOrder(rows: rows, language: language, foldAll: effective.key == .name)
        var keys = ContiguousArray<Entry>()
        keys.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            let value = effective.key == .premium ? premium.premium(row) ?? .nan : number(row, effective.key)
            keys.append(Entry(number: value, index: index))
        }
        keys.sort { a, b in
            if effective.key == .name {
                let order = names.compare(a.index, b.index)
                if order != 0 { return ascending ? order < 0 : order > 0 }
            } else if a.number != b.number && !(a.number.isNaN && b.number.isNaN) {
                if a.number.isNaN { return false }
                if b.number.isNaN { return true }
                return ascending ? a.number < b.number : a.number > b.number
            }
            let byName = names.compare(a.index, b.index)
            if byName != 0 { return byName < 0 }
            return rows[a.index].id.code < rows[b.index].id.code
        }
        return keys.map { rows[$0.index] }
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

    /// Displayed names in a locale-independent order: Hangul syllables are encoded in 가나다
    /// order, Latin is compared case-insensitively, so the order is the same on every machine.
    private struct NameOrder {
        let rows: [MarketRow]
        let language: Language
        var folded: [[UInt32]?]

        init(rows: [MarketRow], language: Language, foldAll: Bool) {
            self.rows = rows
            self.language = language
            folded = foldAll ? rows.map { Self.fold($0.market.name(in: language)) } : Array(repeating: nil, count: rows.count)
        }

        mutating func compare(_ a: Int, _ b: Int) -> Int {
            let x = fold(a), y = fold(b)
            if x != y {
                return x.lexicographicallyPrecedes(y) ? -1 : 1
            }
            let first = rows[a].market.name(in: language), second = rows[b].market.name(in: language)
            return first == second ? 0 : (first < second ? -1 : 1)
        }

        private mutating func fold(_ index: Int) -> [UInt32] {
            if let done = folded[index] { return done }
            let made = Self.fold(rows[index].market.name(in: language))
            folded[index] = made
            return made
        }

        private static func fold(_ name: String) -> [UInt32] {
            name.lowercased().unicodeScalars.map(\.value)
        }
    }
}
