import Foundation

/// The board's sort: a column and a direction, walked by header taps through
/// none → descending → ascending → none (the BitRise cycle).
public struct SortState: Hashable, Sendable, Codable {
    public var key: SortKey
    public var direction: SortDirection

    public init(key: SortKey = .value, direction: SortDirection = .none) {
        self.key = key
        self.direction = direction
    }

    /// The default order: trade value, highest first.
    public static let `default` = SortState()

    /// The state after tapping the header of `tapped`: the same column advances through the
    /// cycle; another column starts at descending.
    public func tapping(_ tapped: SortKey) -> SortState {
        guard tapped == key, direction != .none else {
            return SortState(key: tapped, direction: .descending)
        }
        switch direction {
        case .descending: return SortState(key: tapped, direction: .ascending)
        case .ascending, .none: return SortState(key: tapped, direction: .none)
        }
    }

    /// The direction a header shows: only the active column has one.
    public func direction(of column: SortKey) -> SortDirection {
        column == key ? direction : .none
    }
}
