import Foundation

/// Times as Korean users read them: KST (UTC+9, no DST), the same text on every machine.
public enum KSTText {
    /// `2026-11-22 09:24:01 KST` from epoch milliseconds.
    public static func timestamp(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'KST'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1_000))
    }

    /// `2026-11-22`: the KST calendar day of `date` (as Upbit dates its 52-week high and low).
    public static func date(_ date: Date) -> String {
        String(timestamp(Int64(date.timeIntervalSince1970 * 1_000)).prefix(10))
    }

    /// `HH:mm:ss` in KST from epoch milliseconds, for clocks on a board and in a stream.
    public static func clock(_ ms: Int64) -> String {
        let seconds = ((ms / 1_000 + 9 * 3_600) % 86_400 + 86_400) % 86_400
        return "\(twoDigits(seconds / 3_600)):\(twoDigits(seconds % 3_600 / 60)):\(twoDigits(seconds % 60))"
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Epoch milliseconds of a KST wall time written without an offset (`2026-07-31 06:59:59`, as
    /// Bithumb writes its caution ends and notices); nil for anything else.
    public static func epoch(wallTime text: String) -> Int64? {
        guard text.utf8.count == 19 else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1_000).rounded()) }
    }

    /// The same from an ISO-8601 time such as CoinGecko's `2026-02-17T15:56:31.631Z`.
    public static func fromISO(_ text: String) -> String? {
        ExactTime.milliseconds(iso: text).map(timestamp)
    }
}
