import Foundation
import SiseCore
import Testing

/// Quiet hours and daily caps as a table: a window, a moment (as a Korean — or New York — clock
/// reads it), and whether it is quiet and when a firing held then goes out.
@Suite struct DeliveryWindowTests {
    /// Epoch ms of `text` (`2026-11-27 23:30`) in `zone`.
    static func at(_ text: String, _ zone: String = DeliveryWindow.korea) -> Int64 {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return Int64(formatter.date(from: text)!.timeIntervalSince1970 * 1_000)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let window: DeliveryWindow
        let now: String
        var zone = DeliveryWindow.korea
        var capped = false
        let quiet: Bool
        /// When a firing held now goes out (nil: it is not held).
        let release: String?
        var testDescription: String { name }
    }

    static let night = DeliveryWindow(quietStart: 23 * 60, quietEnd: 7 * 60)

    static let rows: [Row] = [
        Row(
            name: "23:00–07:00, at 23:30: quiet until 07:00 the next morning",
            window: night,
            now: "2026-11-27 23:30",
            quiet: true,
            release: "2026-11-28 07:00"
        ),
        Row(
            name: "23:00–07:00, at 06:59: quiet for one more minute",
            window: night,
            now: "2026-11-28 06:59",
            quiet: true,
            release: "2026-11-28 07:00"
        ),
        Row(name: "23:00–07:00, at 07:00: told at once", window: night, now: "2026-11-28 07:00", quiet: false, release: nil),
        Row(
            name: "13:00–14:00 (lunch), at 13:15",
            window: DeliveryWindow(quietStart: 13 * 60, quietEnd: 14 * 60),
            now: "2026-11-27 13:15",
            quiet: true,
            release: "2026-11-27 14:00"
        ),
        Row(
            name: "capped at 15:00: told the next day, after its quiet hours",
            window: night,
            now: "2026-11-27 15:00",
            capped: true,
            quiet: false,
            release: "2026-11-28 07:00"
        ),
        Row(
            name: "capped, no quiet hours: told at midnight",
            window: DeliveryWindow(dailyCap: 5),
            now: "2026-11-27 15:00",
            capped: true,
            quiet: false,
            release: "2026-11-28 00:00"
        ),
        Row(
            name: "New York's night, read in New York",
            window: DeliveryWindow(quietStart: 22 * 60, quietEnd: 6 * 60, timeZone: "America/New_York"),
            now: "2026-11-27 23:00",
            zone: "America/New_York",
            quiet: true,
            release: "2026-11-28 06:00"
        ),
        Row(
            name: "equal start and end: never quiet",
            window: DeliveryWindow(quietStart: 60, quietEnd: 60),
            now: "2026-11-27 01:00",
            quiet: false,
            release: nil
        ),
    ]

    @Test(arguments: rows)
    func quietHoursAndCapsSayWhenAFiringGoesOut(_ row: Row) {
        let now = Self.at(row.now, row.zone)
        #expect(row.window.isQuiet(now) == row.quiet)
        let held = row.quiet || row.capped
        #expect(held == (row.release != nil))
        if let release = row.release {
            #expect(row.window.release(after: now, capped: row.capped) == Self.at(release, row.zone))
        }
    }

    @Test func theDayACapCountsIsTheZonesDay() {
        let seoul = DeliveryWindow(dailyCap: 3)
        // 00:30 in Seoul is still the previous day in UTC: the cap counts Seoul's day.
        let now = Self.at("2026-11-28 00:30")
        #expect(seoul.dayStart(now) == Self.at("2026-11-28 00:00"))
        #expect(seoul.nextDay(now) == Self.at("2026-11-29 00:00"))
    }

    @Test func settingsAreCheckedUnderTheirFields() throws {
        let refusals: [(DeliveryWindowInput, String)] = [
            (DeliveryWindowInput(quietStart: .some("25:00"), quietEnd: .some("07:00")), "quietStart"),
            (DeliveryWindowInput(quietStart: .some("23:00")), "quietStart"),
            (DeliveryWindowInput(quietStart: .some("23:00"), quietEnd: .some("7")), "quietStart"),
            (DeliveryWindowInput(timeZone: "Mars/Olympus_Mons"), "timeZone"),
            (DeliveryWindowInput(timeZone: String(repeating: "A", count: 100)), "timeZone"),
            // The zone lookup reads a C string: what follows a NUL was not looked at.
            (DeliveryWindowInput(timeZone: "Asia/Seoul\u{0}AAAA"), "timeZone"),
            (DeliveryWindowInput(timeZone: "UTC\u{0}\u{1b}[31mRED"), "timeZone"),
            (DeliveryWindowInput(dailyCap: .some(0)), "dailyCap"),
            (DeliveryWindowInput(dailyCap: .some(1_001)), "dailyCap"),
        ]
        for (input, field) in refusals {
            do {
                _ = try input.applied(to: DeliveryWindow())
                Issue.record("\(field): accepted")
            } catch {
                #expect(error.field == field, "\(error.message)")
            }
        }
        let set = try DeliveryWindowInput(quietStart: .some("23:00"), quietEnd: .some("7:05"), timeZone: "Asia/Tokyo", dailyCap: .some(20))
            .applied(to: DeliveryWindow())
        #expect(set == DeliveryWindow(quietStart: 1_380, quietEnd: 425, timeZone: "Asia/Tokyo", dailyCap: 20))
        let cleared = try DeliveryWindowInput(quietStart: .some(nil), quietEnd: .some(nil), dailyCap: .some(nil)).applied(to: set)
        #expect(cleared.isOpen && cleared.timeZone == "Asia/Tokyo")
        #expect(DeliveryWindow.text(425) == "07:05" && DeliveryWindow.minutes("24:00") == nil)
    }
}
