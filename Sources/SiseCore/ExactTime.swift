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
        // The exchanges' own shape is read by hand (an ISO8601DateFormatter a call was two thirds
        // of a 50,000-order history sync's time); anything else goes to Foundation's.
        if let fast = plainISO(text) { return fast }
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
        }
        return nil
    }

    /// `YYYY-MM-DDTHH:MM:SS`, optional `.fraction` (milliseconds kept), then `Z` or `±HH:MM`, in
    /// epoch ms; nil for any other text (or a date that does not exist).
    static func plainISO(_ text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 40 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<(from + count) {
                let d = Int(b[i]) - 48
                guard (0...9).contains(d) else { return nil }
                value = value * 10 + d
            }
            return value
        }
        guard b[4] == 45, b[7] == 45, b[10] == 84, b[13] == 58, b[16] == 58,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1970...9999).contains(year), (1...12).contains(month), hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= days[month - 1] else { return nil }
        var index = 19
        var millis = 0
        if b[index] == 46 {
            index += 1
            var digits = 0
            var next = 0
            while index < b.count, (48...57).contains(b[index]) {
                if digits < 3 { millis = millis * 10 + Int(b[index]) - 48 } else if digits == 3 { next = Int(b[index]) - 48 }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { millis *= 10 } }
            // Rounded to the millisecond, as Foundation's reading rounds.
            if next >= 5 { millis += 1 }
        }
        guard index < b.count else { return nil }
        var offset = 0
        if b[index] == 90 {
            guard index + 1 == b.count else { return nil }
        } else {
            guard b[index] == 43 || b[index] == 45, index + 6 == b.count, b[index + 3] == 58,
                let hours = number(index + 1, 2), let minutes = number(index + 4, 2), hours <= 23, minutes <= 59
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (b[index] == 43 ? 1 : -1)
        }
        // Days since 1970-01-01 of the civil date (H. Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let epochDays = era * 146_097 + dayOfEra - 719_468
        let seconds = epochDays * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Int64(seconds) * 1_000 + Int64(millis)
    }
}
