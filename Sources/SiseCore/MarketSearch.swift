import Foundation

/// A board search: partial, case-insensitive, trimmed, over the Korean name, the English name
/// and the symbol, with 초성 (`ㅂㅌ` finds 비트코인, `비ㅌ` too).
public struct MarketSearch: Sendable, Hashable {
    private let needle: [Character]

    public init(_ text: String) {
        needle = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased())
    }

    /// An empty search matches everything.
    public var isEmpty: Bool { needle.isEmpty }

    public func matches(_ market: Market) -> Bool {
        if needle.isEmpty { return true }
        return [market.koreanName, market.englishName, market.symbol, market.id.code]
            .contains { contains(Array($0.lowercased())) }
    }

    /// Whether any of `fields` (names, symbols) holds the search.
    public func matches(any fields: [String]) -> Bool {
        needle.isEmpty || fields.contains { contains(Array($0.lowercased())) }
    }

    /// Whether `name` starts with the search (초성 too).
    public func isPrefix(of name: String) -> Bool {
        let haystack = Array(name.lowercased())
        return haystack.count >= needle.count
            && zip(needle, haystack).allSatisfy { Hangul.matches(typed: $0, name: $1) }
    }

    public func filter(_ rows: [MarketRow]) -> [MarketRow] {
        needle.isEmpty ? rows : rows.filter { matches($0.market) }
    }

    private func contains(_ haystack: [Character]) -> Bool {
        if contiguousMatch(haystack) { return true }
        // Also let "비트 코인"-style spacing differences match.
        let compact = haystack.filter { $0 != " " }
        return compact.count != haystack.count && contiguousMatch(compact)
    }

    private func contiguousMatch(_ haystack: [Character]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) {
            var hit = true
            for offset in 0..<needle.count where !Hangul.matches(typed: needle[offset], name: haystack[start + offset]) {
                hit = false
                break
            }
            if hit { return true }
        }
        return false
    }
}
