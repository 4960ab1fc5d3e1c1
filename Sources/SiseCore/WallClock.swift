import Foundation

/// The wall clock, as epoch milliseconds: the one place Sise reads the time of day. Rules take
/// the time as an argument; services and faces are handed a `WallClock` (tests give them a fixed
/// or stepped one) and default to `.system`.
public struct WallClock: Sendable {
    public let milliseconds: @Sendable () -> Int64

    public init(_ milliseconds: @escaping @Sendable () -> Int64) {
        self.milliseconds = milliseconds
    }

    /// Now, in epoch milliseconds.
    public var now: Int64 { milliseconds() }

    /// The machine's clock.
    public static let system = WallClock { Int64(Date().timeIntervalSince1970 * 1_000) }

    /// A clock stopped at `at` (epoch ms).
    public static func fixed(_ at: Int64) -> WallClock { WallClock { at } }
}
