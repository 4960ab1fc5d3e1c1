import Foundation

/// The columns a board can be sorted by. Raw values are the CLI/API spellings.
public enum SortKey: String, CaseIterable, Sendable, Codable {
    case name
    case price
    case change
    case value
    /// The kimchi premium (KRW boards; unknown premiums sort last).
    case premium
}

/// The direction of the chosen column; `none` means the default order (trade value descending).
public enum SortDirection: String, CaseIterable, Sendable, Codable {
    case none
    case descending
    case ascending

    /// The one vocabulary every face accepts: `asc`/`ascending`, `desc`/`descending`, `none`
    /// (any case); nil for anything else.
    public init?(spelling: String) {
        switch spelling.lowercased() {
        case "asc", "ascending": self = .ascending
        case "desc", "descending": self = .descending
        case "none": self = .none
        default: return nil
        }
    }

    /// How the CLI, the API and the page write it: `asc`, `desc`, `none`.
    public var spelling: String {
        switch self {
        case .none: "none"
        case .descending: "desc"
        case .ascending: "asc"
        }
    }

    /// The 3-state header cycle (the BitRise cycle): another column, or the same one with no
    /// direction, starts descending; descending turns ascending; ascending turns none. A column
    /// of words (`wordsFirstAscending`: a name) runs the other way round — 가나다 before ㅎ, A
    /// before Z — then the reverse, then none.
    public func tapped(sameColumn: Bool, wordsFirstAscending: Bool = false) -> SortDirection {
        let first: SortDirection = wordsFirstAscending ? .ascending : .descending
        let second: SortDirection = wordsFirstAscending ? .descending : .ascending
        guard sameColumn, self != .none else { return first }
        return self == first ? second : .none
    }

    /// The short spellings every face accepts, for refusals.
    public static let choices = ["asc", "desc", "none"]

    /// For the CLI's messages: "asc, desc or none".
    public static let spellings = "asc, desc or none"
}
