import Foundation
import Testing

@testable import SiseCore

/// The exchanges' ISO 8601 times read by hand agree with Foundation's reading to the millisecond
/// — every offset, with and without fractions, across leap days and the years — and anything the
/// hand reading does not take (a space for the `T`, a year before 1970, a 30 February) is left to
/// Foundation, which refuses what does not exist.
@Suite struct ExactTimeTests {
    static func foundation(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
        }
        return nil
    }

    @Test func theHandReadingAgreesWithFoundation() {
        var random = SystemRandomNumberGenerator()
        var texts = ["2019-01-04T13:48:09+09:00", "2025-07-04T08:02:05.526+00:00", "2026-02-17T15:56:31.631Z", "2024-02-29T23:59:59-05:30"]
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: 0...4_102_444_800, using: &random)
            let offset = [0, 9 * 60, -5 * 60 - 30, 5 * 60 + 45, -12 * 60, 14 * 60].randomElement(using: &random) ?? 0
            let date = Date(timeIntervalSince1970: Double(seconds) + Double(offset) * 60)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let zone =
                offset == 0 && Bool.random(using: &random)
                ? "Z" : String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
            let fraction = ["", ".5", ".123", ".1234", ".000"].randomElement(using: &random) ?? ""
            texts.append(
                String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
                    + fraction + zone
            )
        }
        for text in texts {
            #expect(ExactTime.plainISO(text) == Self.foundation(text), "\(text)")
            #expect(ExactTime.milliseconds(iso: text) == Self.foundation(text), "\(text)")
        }
    }

    @Test func whatTheHandReadingDoesNotTakeGoesToFoundation() {
        for text in [
            "2019-01-04 13:48:09+09:00", "1969-12-31T23:59:59Z", "2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "nope", "",
        ] {
            #expect(ExactTime.plainISO(text) == nil, "\(text)")
            #expect(ExactTime.milliseconds(iso: text) == Self.foundation(text), "\(text)")
        }
    }
}
