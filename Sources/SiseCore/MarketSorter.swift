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
    public static func sorted(
        _ rows: [MarketRow],
        by state: SortState,
        language: Language = .ko,
        premium: PremiumInputs = .none
    ) -> [MarketRow] {
        let ordering = MarketOrdering(state, language: language, premium: premium)
        var names = NameOrder(rows: rows, language: language, foldAll: ordering.key == .name)
        var keys = ContiguousArray<Entry>()
        keys.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            keys.append(Entry(number: ordering.number(row), index: index))
        }
        keys.sort { a, b in
            if ordering.key == .name {
                let order = names.compare(a.index, b.index)
                if order != 0 { return ordering.ascending ? order < 0 : order > 0 }
            } else if let decided = ordering.decide(a.number, b.number) {
                return decided
            }
            let byName = names.compare(a.index, b.index)
            if byName != 0 { return byName < 0 }
            return rows[a.index].id.code < rows[b.index].id.code
        }
        return keys.map { rows[$0.index] }
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
            folded = foldAll ? rows.map { MarketOrdering.fold($0.market.name(in: language)) } : Array(repeating: nil, count: rows.count)
        }

        mutating func compare(_ a: Int, _ b: Int) -> Int {
            MarketOrdering.compareNames(fold(a), fold(b), rows[a].market.name(in: language), rows[b].market.name(in: language))
        }

        private mutating func fold(_ index: Int) -> [UInt32] {
            if let done = folded[index] { return done }
            let made = MarketOrdering.fold(rows[index].market.name(in: language))
            folded[index] = made
            return made
        }
    }
}
