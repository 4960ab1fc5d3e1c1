import Foundation
import Testing

@testable import SiseSimulator

/// The simulator's own decimal spelling agrees with the C formatter it replaced.
@Suite struct FixedDecimalTests {
    @Test(arguments: [
        (0.0, 8, "0.00000000"), (-0.0, 2, "-0.00"), (1.5, 0, "2"), (123_456_789.123, 2, "123456789.12"),
        (0.000_000_01, 8, "0.00000001"), (-42.125, 3, "-42.125"), (0.1, 10, "0.1000000000"), (-0.000_000_001, 8, "-0.00000000"),
    ])
    func spellsLikeTheFormatter(value: Double, places: Int, expected: String) {
        #expect(FixedDecimal.text(value, places: places) == expected)
        #expect(String(format: "%.\(places)f", value) == expected)
    }

    @Test func agreesWithTheFormatterOnPricesOfEveryScale() {
        var generator = SystemRandomNumberGenerator()
        var differing: [String] = []
        for _ in 0..<20_000 {
            let value = Double.random(in: -1...1, using: &generator) * pow(10, Double.random(in: -9...12, using: &generator))
            for places in [2, 8, 10] {
                let mine = FixedDecimal.text(value, places: places)
                let theirs = String(format: "%.\(places)f", value)
                // The formatter rounds the exact binary value, this the scaled one: past 15 or so
                // significant digits the last digit may differ by one, never more.
                guard mine != theirs else { continue }
                let digits = { (text: String) in Int64(text.filter { $0 != "." && $0 != "-" }) }
                if mine.first == theirs.first, let a = digits(mine), let b = digits(theirs), abs(a - b) <= 1 { continue }
                differing.append("\(value) %.\(places)f: \(mine) vs \(theirs)")
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
        #expect(FixedDecimal.text(1e300, places: 8) == String(format: "%.8f", 1e300))
        #expect(FixedDecimal.text(.infinity, places: 2) == String(format: "%.2f", Double.infinity))
    }
}
