import Foundation

/// A deterministic random walk: the price of any market at any instant, computed directly
/// (no stored history), so REST tickers, candles and the stream always agree.
///
/// Log-price is a sum of value-noise octaves whose amplitudes grow with the square root of
/// their period, as a Brownian walk's do.
struct PriceWalk: Sendable {
    private static let periods: [Double] = [1, 5, 30, 300, 1_800, 10_800, 86_400, 604_800, 2_592_000, 10_368_000]
    private let amplitudes: [Double]
    private let seed: UInt64

    /// - Parameter dailyVolatility: typical one-day move of log-price (0.03 ≈ 3 %).
    init(seed: UInt64, dailyVolatility: Double) {
        self.seed = seed
        amplitudes = Self.periods.map { dailyVolatility * ($0 / 86_400).squareRoot() * 0.9 }
    }

    /// The multiplier applied to the base price at `seconds` since the epoch.
    func factor(at seconds: Double) -> Double {
        var log = 0.0
        for (octave, period) in Self.periods.enumerated() {
            let x = seconds / period
            let cell = x.rounded(.down)
            let f = x - cell
            let a = SimRandom.unit(SimRandom.hash(seed, UInt64(octave), UInt64(bitPattern: Int64(cell))))
            let b = SimRandom.unit(SimRandom.hash(seed, UInt64(octave), UInt64(bitPattern: Int64(cell) + 1)))
            let smooth = f * f * (3 - 2 * f)
            log += amplitudes[octave] * (a + (b - a) * smooth)
        }
        return exp(log)
    }

    /// The mean of `activity` over the 24 hours up to `seconds`: the rolling day's traded value
    /// over the typical one, as a real exchange's 24-hour figure is a sum of what traded (so it
    /// moves by what trades in a minute less what leaves the day, never by a jump of its own).
    /// Exact for the piecewise-linear activity: the trapezoid of each hour's part.
    func dayActivity(at seconds: Double) -> Double {
        let end = seconds / 3_600
        var x = end - 24
        var sum = 0.0
        while x < end {
            let cell = x.rounded(.down)
            let next = min(end, cell + 1)
            let a = SimRandom.unit(SimRandom.hash(seed, 99, UInt64(bitPattern: Int64(cell))))
            let b = SimRandom.unit(SimRandom.hash(seed, 99, UInt64(bitPattern: Int64(cell) + 1)))
            let from = a + (b - a) * (x - cell)
            let to = a + (b - a) * (next - cell)
            sum += (next - x) * (from + to) / 2
            x = next
        }
        return 1 + 0.4 * sum / 24
    }

    /// A traded-value multiplier around 1 that drifts slowly (busy and quiet hours).
    func activity(at seconds: Double) -> Double {
        let x = seconds / 3_600
        let cell = x.rounded(.down)
        let a = SimRandom.unit(SimRandom.hash(seed, 99, UInt64(bitPattern: Int64(cell))))
        let b = SimRandom.unit(SimRandom.hash(seed, 99, UInt64(bitPattern: Int64(cell) + 1)))
        return 1 + 0.4 * (a + (b - a) * (x - cell))
    }
}
