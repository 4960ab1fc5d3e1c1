import Foundation

/// When a destination may be told: outside its quiet hours (in its time zone, Korea's by
/// default) and under its daily cap (firings delivered since its local midnight). A firing held
/// back waits for `release(after:capped:)` and goes out then in one digest with the others.
public struct DeliveryWindow: Codable, Equatable, Sendable {
    /// Minutes after local midnight the quiet hours start and end (`23:00` → 1380); both or
    /// neither. A start after the end spans midnight (23:00–07:00); equal: never quiet.
    public var quietStart: Int?
    public var quietEnd: Int?
    /// An IANA zone (`Asia/Seoul`).
    public var timeZone: String
    /// At most this many firings told a local day (nil: no cap).
    public var dailyCap: Int?

    public static let korea = "Asia/Seoul"
    /// The largest cap (a cap is for people, not scripts).
    public static let maxCap = 1_000

    public init(quietStart: Int? = nil, quietEnd: Int? = nil, timeZone: String = Self.korea, dailyCap: Int? = nil) {
        self.quietStart = quietStart
        self.quietEnd = quietEnd
        self.timeZone = timeZone
        self.dailyCap = dailyCap
    }

    /// Neither quiet hours nor a cap: every firing goes out at once.
    public var isOpen: Bool { quietStart == nil && dailyCap == nil }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? TimeZone(identifier: Self.korea) ?? .gmt
        return calendar
    }

    /// The local midnight that began the day of `at` (epoch ms).
    public func dayStart(_ at: Int64) -> Int64 {
        Self.ms(calendar.startOfDay(for: Self.date(at)))
    }

    /// The local midnight after `at`.
    public func nextDay(_ at: Int64) -> Int64 {
        let start = calendar.startOfDay(for: Self.date(at))
        return calendar.date(byAdding: .day, value: 1, to: start).map(Self.ms) ?? at + 86_400_000
    }

    /// Whether `at` falls in the quiet hours.
    public func isQuiet(_ at: Int64) -> Bool {
        guard let start = quietStart, let end = quietEnd, start != end else { return false }
        let minute = minuteOfDay(at)
        return start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }

    /// When a firing held at `at` may go out: the end of the quiet hours it fell in; if the cap
    /// held it, the next local day — or, when that day begins in quiet hours, their end.
    public func release(after at: Int64, capped: Bool) -> Int64 {
        var moment = at
        if capped { moment = nextDay(at) }
        if isQuiet(moment) { moment = quietEnds(after: moment) }
        return moment
    }

    /// The first moment after `at` (in quiet hours) that is not quiet.
    func quietEnds(after at: Int64) -> Int64 {
        guard let end = quietEnd else { return at }
        let day = calendar.startOfDay(for: Self.date(at))
        for offset in 0...1 {
            guard let base = calendar.date(byAdding: .day, value: offset, to: day),
                let moment = calendar.date(bySettingHour: end / 60, minute: end % 60, second: 0, of: base).map(Self.ms),
                moment > at
            else { continue }
            return moment
        }
        return at + 86_400_000
    }

    func minuteOfDay(_ at: Int64) -> Int {
        let parts = calendar.dateComponents([.hour, .minute], from: Self.date(at))
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// `23:00` → 1380; nil for anything but `H:MM`/`HH:MM` within a day.
    public static func minutes(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// 1380 → `23:00`.
    public static func text(_ minutes: Int) -> String {
        let clamped = min(max(minutes, 0), 1_439)
        let hour = clamped / 60
        let minute = clamped % 60
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1_000) }
    static func ms(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
}
