import Foundation

/// Axis scales with "nice" ticks (1, 2, 5 × 10ⁿ), so labels read like a person chose them.
public struct NiceScale: Equatable, Sendable {
    public let lower: Double
    public let upper: Double
    public let step: Double

    /// A scale covering `min...max` with about `count` ticks.
    public init(min: Double, max: Double, count: Int = 5) {
        var low = min
        var high = max
        if !(low.isFinite && high.isFinite) { (low, high) = (0, 1) }
        if high < low { swap(&low, &high) }
        if high == low {
            let pad = low == 0 ? 1 : abs(low) * 0.01
            (low, high) = (low - pad, high + pad)
        }
        let step = Self.nice((high - low) / Double(Swift.max(count - 1, 1)), round: true)
        self.step = step
        lower = (low / step).rounded(.down) * step
        upper = (high / step).rounded(.up) * step
    }

    public var ticks: [Double] {
        var out: [Double] = []
        var value = lower
        while value <= upper + step / 2 {
            out.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return out
    }

    /// Where `value` falls between lower (0) and upper (1).
    public func fraction(_ value: Double) -> Double {
        upper == lower ? 0.5 : (value - lower) / (upper - lower)
    }

    static func nice(_ value: Double, round: Bool) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let exponent = (log10(value)).rounded(.down)
        let fraction = value / pow(10, exponent)
        let niceFraction: Double
        if round {
            niceFraction = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
        } else {
            niceFraction = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        }
        // Divide for negative exponents: 1 / 10⁵ is exact where 10⁻⁵ is not.
        return exponent < 0 ? niceFraction / pow(10, -exponent) : niceFraction * pow(10, exponent)
    }
}
