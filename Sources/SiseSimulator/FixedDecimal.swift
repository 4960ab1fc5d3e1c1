import Foundation

/// A number with a fixed count of decimals, as `String(format: "%.Nf", value)` spells it, without
/// Foundation's formatter: the demo's streams spell thousands of numbers a second in every server
/// a test starts, and the formatter was a tenth of an idle demo server's CPU. While
/// |value| · 10^places stays below 2^53 the scaled value is rounded (half away from zero), so past
/// 15 or so significant digits the last one may differ by one from the formatter's; beyond 2^53,
/// and for places beyond 15, the formatter.
enum FixedDecimal {
    private static let scales: [Double] = (0...15).map { pow(10, Double($0)) }
    private static let exactLimit = 9_007_199_254_740_992.0

    static func text(_ value: Double, places: Int) -> String {
        guard value.isFinite, scales.indices.contains(places) else { return String(format: "%.\(places)f", value) }
        let scaled = (value.magnitude * scales[places]).rounded()
        guard scaled < exactLimit else { return String(format: "%.\(places)f", value) }
        let units = UInt64(scaled)
        let scale = UInt64(scales[places])
        var out = value.sign == .minus ? "-" : ""
        out += String(units / scale)
        guard places > 0 else { return out }
        let fraction = String(units % scale)
        out += "."
        out += String(repeating: "0", count: places - fraction.count)
        out += fraction
        return out
    }
}
