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

    /// An ISO 8601 time as exchanges and files write it, with or without fractional seconds and
    /// with any offset (`2025-07-04T08:02:05.526+00:00`, `2025-04-22T15:21:10+09:00`), in epoch ms.
    public static func milliseconds(iso text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
        }
        return nil
    }
}
