import Foundation
import SiseCore
import Testing

@testable import SiseSimulator

/// The simulated history writes its orders' times as Upbit does (`…T09:24:01+09:00`), read back
/// to the second they stand for — across leap days, month ends and the years.
@Suite struct SimHistoryTimeTests {
    @Test func anOrdersTimeReadsBackToItsSecond() {
        var random = SystemRandomNumberGenerator()
        let samples =
            [0, 951_782_400_000, 1_709_164_799_000, 1_796_400_000_000]
            + (0..<5_000).map { _ in Int64.random(in: 0...4_102_444_800_000, using: &random) }
        for ms in samples {
            let text = SimAccounts.createdAt(ms)
            #expect(text.hasSuffix("+09:00") && text.count == 25, "\(text)")
            #expect(ExactTime.milliseconds(iso: text) == ms / 1_000 * 1_000, "\(ms) → \(text)")
        }
    }
}
