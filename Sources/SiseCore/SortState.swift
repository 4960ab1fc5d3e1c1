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

    /// The sort a request asks for, the same rule for the CLI and the API: a column without a
    /// direction sorts it descending; a direction without a column applies to trade value;
    /// `none` (or nothing) is the default order.
    public static func requested(key: SortKey?, direction: SortDirection?) -> SortState {
        let direction = direction ?? .descending
        guard direction != .none else { return .default }
        guard let key else { return direction == .descending ? .default : SortState(key: .value, direction: direction) }
        return SortState(key: key, direction: direction)
    }

    /// The state after tapping the header of `tapped`: the same column advances through the
    /// cycle; another column starts at descending (the name column at ascending: 가나다 first).
    public func tapping(_ tapped: SortKey) -> SortState {
        SortState(key: tapped, direction: direction.tapped(sameColumn: tapped == key, wordsFirstAscending: tapped == .name))
    }

    /// The direction a header shows: only the active column has one.
    public func direction(of column: SortKey) -> SortDirection {
        column == key ? direction : .none
    }
}
