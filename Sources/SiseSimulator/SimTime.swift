import Foundation

/// Calendar arithmetic the simulator needs, in pure integer math (UTC; KST = UTC+9, no DST).
enum SimTime {
    struct Civil { var year, month, day, hour, minute, second: Int }

    static let kstOffset = 9 * 3_600

    static func civil(_ epochSeconds: Int) -> Civil {
        let days = Int((Double(epochSeconds) / 86_400).rounded(.down))
        let secs = epochSeconds - days * 86_400
        // Howard Hinnant's days-to-civil.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return Civil(year: y, month: m, day: d, hour: secs / 3_600, minute: secs % 3_600 / 60, second: secs % 60)
    }

    static func epoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return (era * 146_097 + doe - 719_468) * 86_400
    }

    private static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// `2026-03-11T14:40:00`
    static func isoLocal(_ epochSeconds: Int) -> String {
        let c = civil(epochSeconds)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))"
    }

    /// `2026-03-11`
    static func dashedDate(_ epochSeconds: Int) -> String {
        let c = civil(epochSeconds)
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))"
    }

    /// `20260311`
    static func compactDate(_ epochSeconds: Int) -> String {
        let c = civil(epochSeconds)
        return pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2)
    }

    /// `144058`
    static func compactTime(_ epochSeconds: Int) -> String {
        let c = civil(epochSeconds)
        return pad(c.hour, 2) + pad(c.minute, 2) + pad(c.second, 2)
    }

    /// Parses a candle `to`: ISO 8601 with `Z` or an offset, or zone-less (UTC).
    static func parse(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        let parts = text.split(whereSeparator: { "-T: ".contains($0) })
        guard parts.count >= 6, let y = Int(parts[0]), let mo = Int(parts[1]), let d = Int(parts[2]),
            let h = Int(parts[3]), let mi = Int(parts[4]), let s = Int(parts[5].prefix(2))
        else { return nil }
        return Double(epoch(year: y, month: mo, day: d) + h * 3_600 + mi * 60 + s)
    }
}
