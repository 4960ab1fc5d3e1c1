import Foundation

/// The order `MarketSorter` sorts by, as a comparison of two rows: `ViewOrder` uses it to place
/// the rows that changed without sorting the others again, and the two always agree because
/// they decide with the same functions.
public struct MarketOrdering: Sendable {
    let key: SortKey
    let ascending: Bool
    let language: Language
    let premium: PremiumInputs

    public init(_ state: SortState, language: Language, premium: PremiumInputs = .none) {
        // No direction chosen: the default order (trade value, highest first).
        let effective = state.direction == .none ? SortState(key: .value, direction: .descending) : state
        key = effective.key
        ascending = effective.direction == .ascending
        self.language = language
        self.premium = premium
    }

    /// Whether the order reads the premium (whose inputs age with the clock).
    public var readsPremium: Bool { key == .premium }

    /// Whether `a` is shown above `b`. A strict total order: two different markets never tie.
    public func precedes(_ a: MarketRow, _ b: MarketRow) -> Bool {
        if key != .name, let decided = decide(number(a), number(b)) { return decided }
        let first = a.market.name(in: language)
        let second = b.market.name(in: language)
        let byName = Self.compareNames(Self.fold(first), Self.fold(second), first, second)
        if byName != 0 { return key == .name && !ascending ? byName > 0 : byName < 0 }
        return a.id.code < b.id.code
    }

    /// The row's sort number; NaN for an unknown premium.
    func number(_ row: MarketRow) -> Double {
        switch key {
        case .name: 0
        case .price: row.ticker.price
        case .change: row.ticker.signedChangeRate
        case .value: row.ticker.tradeValue24h
        case .premium: premium.premium(row) ?? .nan
        }
    }

    /// The numbers' verdict, or nil when they tie (names decide then). NaN sorts last either way.
    @inline(__always)
    func decide(_ a: Double, _ b: Double) -> Bool? {
        guard a != b && !(a.isNaN && b.isNaN) else { return nil }
        if a.isNaN { return false }
        if b.isNaN { return true }
        return ascending ? a < b : a > b
    }

    static func fold(_ name: String) -> [UInt32] {
        name.lowercased().unicodeScalars.map(\.value)
    }

    /// -1, 0 or 1: folded names first, then the names as written.
    static func compareNames(_ x: [UInt32], _ y: [UInt32], _ first: String, _ second: String) -> Int {
        if x != y { return x.lexicographicallyPrecedes(y) ? -1 : 1 }
        return first == second ? 0 : (first < second ? -1 : 1)
    }
}
