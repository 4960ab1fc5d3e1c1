import Foundation

/// Technical indicators over closing prices, oldest first, each result aligned with its input
/// (`nil` until enough values exist). Definitions (also in docs/commands.md):
///
/// - MA(n): the simple mean of the last n closes.
/// - EMA(n): α = 2 / (n + 1), seeded by the SMA of the first n closes.
/// - Bollinger(n, k): SMA(n) ± k × the population standard deviation of the same n closes.
/// - RSI(n): Wilder's smoothing, seeded by the simple average gain and loss of the first n
///   changes; 100 when there were no losses, 50 when there was no change at all.
/// - MACD(fast, slow, signal): EMA(fast) − EMA(slow); the signal is the EMA(signal) of the MACD
///   line seeded by the SMA of its first `signal` values; the histogram is MACD − signal.
public enum Indicators {
    public struct Band: Hashable, Sendable {
        public let upper: Double
        public let middle: Double
        public let lower: Double
    }

    public struct MACD: Hashable, Sendable {
        public let macd: Double
        public let signal: Double
        public let histogram: Double
    }

    public static func sma(_ values: [Double], period: Int) -> [Double?] {
        guard period > 0 else { return values.map { _ in nil } }
        var out = [Double?](repeating: nil, count: values.count)
        var sum = 0.0
        for (i, value) in values.enumerated() {
            sum += value
            if i >= period { sum -= values[i - period] }
            if i >= period - 1 { out[i] = sum / Double(period) }
        }
        return out
    }

    public static func ema(_ values: [Double], period: Int) -> [Double?] {
        var out = [Double?](repeating: nil, count: values.count)
        guard period > 0, values.count >= period else { return out }
        let alpha = 2 / Double(period + 1)
        var value = values[0..<period].reduce(0, +) / Double(period)
        out[period - 1] = value
        for i in period..<values.count {
            value = alpha * values[i] + (1 - alpha) * value
            out[i] = value
        }
        return out
    }

    public static func bollinger(_ values: [Double], period: Int = 20, width: Double = 2) -> [Band?] {
        guard period > 0 else { return values.map { _ in nil } }
        return values.indices.map { i in
            guard i >= period - 1 else { return nil }
            let window = values[(i - period + 1)...i]
            let mean = window.reduce(0, +) / Double(period)
            let deviation = (window.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(period)).squareRoot()
            return Band(upper: mean + width * deviation, middle: mean, lower: mean - width * deviation)
        }
    }

    public static func rsi(_ values: [Double], period: Int = 14) -> [Double?] {
        var out = [Double?](repeating: nil, count: values.count)
        guard period > 0, values.count > period else { return out }
        func strength(_ gain: Double, _ loss: Double) -> Double {
            if loss == 0 { return gain == 0 ? 50 : 100 }
            return 100 - 100 / (1 + gain / loss)
        }
        var gain = 0.0
        var loss = 0.0
        for i in 1...period {
            let change = values[i] - values[i - 1]
            gain += max(change, 0)
            loss += max(-change, 0)
        }
        gain /= Double(period)
        loss /= Double(period)
        out[period] = strength(gain, loss)
        for i in (period + 1)..<values.count {
            let change = values[i] - values[i - 1]
            gain = (gain * Double(period - 1) + max(change, 0)) / Double(period)
            loss = (loss * Double(period - 1) + max(-change, 0)) / Double(period)
            out[i] = strength(gain, loss)
        }
        return out
    }

    public static func macd(_ values: [Double], fast: Int = 12, slow: Int = 26, signal: Int = 9) -> [MACD?] {
        let fastLine = ema(values, period: fast)
        let slowLine = ema(values, period: slow)
        let line: [Double?] = zip(fastLine, slowLine).map { a, b in a.flatMap { a in b.map { a - $0 } } }
        guard let first = line.firstIndex(where: { $0 != nil }) else { return values.map { _ in nil } }
        let signalLine = ema(line[first...].compactMap { $0 }, period: signal)
        var out = [MACD?](repeating: nil, count: values.count)
        for (offset, value) in signalLine.enumerated() {
            guard let value, let macd = line[first + offset] else { continue }
            out[first + offset] = MACD(macd: macd, signal: value, histogram: macd - value)
        }
        return out
    }
}
