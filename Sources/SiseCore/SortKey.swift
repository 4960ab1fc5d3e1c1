import Foundation

/// The columns a board can be sorted by. Raw values are the CLI/API spellings.
public enum SortKey: String, CaseIterable, Sendable, Codable {
    case name
    case price
    case change
    case value
}

/// The direction of the chosen column; `none` means the default order (trade value descending).
public enum SortDirection: String, CaseIterable, Sendable, Codable {
    case none
    case descending
    case ascending
}
