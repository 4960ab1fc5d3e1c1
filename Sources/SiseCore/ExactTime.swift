import Foundation

/// Epoch milliseconds from a number that came from outside (JSON numbers are doubles): nil for
/// NaN, infinities, and anything outside years 1970–9999, so a hostile or broken value can
/// never reach a failing `Int64(double)` conversion.
public enum ExactTime {
    /// 9999-12-31 in epoch milliseconds.
    public static let latest: Double = 253_402_300_799_999

    public static func milliseconds(_ value: Double) -> Int64? {
        guard value.isFinite, value >= 0, value <= latest else { return nil }
        return Int64(value)
    }
}
