import Foundation

/// The exchange's order tick by price, as Upbit's current tables have it. Prices the simulator
/// quotes are always whole ticks, and `/v1/orderbook/instruments` answers these.
enum SimTickSize {
    /// The tick as a power of ten times a mantissa (1 or 5): `(1, 3)` is 1,000, `(5, 1)` is 50,
    /// `(1, -2)` is 0.01. Kept as integers so snapping is cheap and exact.
    static func tick(price: Double, quote: String) -> (mantissa: Int, exponent: Int) {
        switch quote {
        case "BTC": return (1, -8)
        case "USDT":
            switch price {
            case 1_000...: return (1, -2)
            case 1..<1_000: return (1, -3)
            case 0.1..<1: return (1, -4)
            default: return (1, -8)
            }
        default:
            switch price {
            case 2_000_000...: return (1, 3)
            case 1_000_000..<2_000_000: return (5, 2)
            case 500_000..<1_000_000: return (1, 2)
            case 100_000..<500_000: return (5, 1)
            case 10_000..<100_000: return (1, 1)
            case 100..<10_000: return (1, 0)
            case 10..<100: return (1, -2)
            case 1..<10: return (1, -3)
            case 0.1..<1: return (1, -4)
            case 0.01..<0.1: return (1, -5)
            case 0.001..<0.01: return (1, -6)
            case 0.0001..<0.001: return (1, -7)
            default: return (1, -8)
            }
        }
    }

    /// The tick as the instruments endpoint spells it: `"1000"`, `"50"`, `"0.01"`.
    static func text(price: Double, quote: String) -> String {
        let (mantissa, exponent) = tick(price: price, quote: quote)
        if exponent >= 0 { return String(mantissa) + String(repeating: "0", count: exponent) }
        return "0." + String(repeating: "0", count: -exponent - 1) + String(mantissa)
    }

    /// `price` rounded to a whole tick (never below one tick), without binary noise in the
    /// decimals the tick allows (0.000482, not 0.00048200000000000001).
    static func snap(_ price: Double, quote: String) -> Double {
        let (mantissa, exponent) = tick(price: price, quote: quote)
        let tick = Double(mantissa) * pow10(exponent)
        let ticks = max(1, (price / tick).rounded())
        guard exponent < 0 else { return ticks * tick }
        let scale = pow10(-exponent)
        return (ticks * Double(mantissa)).rounded() / scale
    }

    private static let powers: [Double] = (0...12).map { pow(10, Double($0)) }

    private static func pow10(_ n: Int) -> Double {
        n >= 0 ? powers[min(n, 12)] : 1 / powers[min(-n, 12)]
    }
}
