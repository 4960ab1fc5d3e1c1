/// A JSON number as it is read: `mantissa × 10^(pendingZeros − fractionDigits + exponent)`, the
/// mantissa kept below 10¹⁹ so it is exact in 64 bits. Zeros are held back until a nonzero digit
/// follows, so `102417000.00000000` stays a six-digit mantissa.
struct Decimal64 {
    private var mantissa: UInt64 = 0
    /// An upper bound on the mantissa's decimal digits: it stays below 10^digits.
    private var digits = 0
    /// Zeros read after the mantissa's last digit and not yet folded into it.
    private var pendingZeros = 0
    private var fractionDigits = 0
    /// False once a nonzero digit did not fit: only `strtod` can round that number.
    private(set) var exact = true
    /// The `e` part.
    var exponent = 0

    @inline(__always)
    mutating func appendInteger(_ run: DigitRun) {
        append(run)
    }

    @inline(__always)
    mutating func appendFraction(_ run: DigitRun) {
        fractionDigits += run.count
        append(run)
    }

    @inline(__always)
    private mutating func append(_ run: DigitRun) {
        if run.significand == 0 {
            pendingZeros += run.count
            return
        }
        let shift = pendingZeros + run.count - run.trailingZeros
        if mantissa == 0 {
            mantissa = run.significand
            digits = run.count - run.trailingZeros
        } else if digits + shift <= 19 {
            mantissa = mantissa * Self.tens[shift] + run.significand
            digits += shift
        } else {
            exact = false
        }
        pendingZeros = run.trailingZeros
    }

    /// 10⁰…10¹⁹, every one exact in 64 bits.
    private static let tens: [UInt64] = (0...19).map { n in (0..<n).reduce(1) { value, _ in value * 10 } }

    /// The double nearest the decimal, when one rounding gives it for sure; nil sends the
    /// number to `strtod`.
    @inline(__always)
    var value: Double? {
        guard exact else { return nil }
        if mantissa == 0 { return 0 }
        let power = pendingZeros - fractionDigits + exponent
        // Clinger's fast path: both operands exact, one rounding.
        if mantissa <= 1 << 53 && power >= -22 && power <= 22 {
            let m = Double(mantissa)
            return power < 0 ? m / Self.power(-power) : m * Self.power(power)
        }
        #if (arch(i386) || arch(x86_64)) && !(os(Windows) || os(Android))
        if power >= -27 && power <= 27 { return Self.extended(mantissa, power) }
        #endif
        return nil
    }

    /// Exact powers of ten 10⁰…10²² as literals: no table to load on the hot path.
    @inline(__always)
    private static func power(_ n: Int) -> Double {
        switch n {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    #if (arch(i386) || arch(x86_64)) && !(os(Windows) || os(Android))
    /// Mantissas of 54–64 bits (`1016673124418.02839` has 18 digits): the x87 format holds the
    /// mantissa and 10^|power| ≤ 10²⁷ exactly, so the quotient or product is rounded once, to 64
    /// bits. Rounding that again to 53 bits can differ from rounding once only when the first
    /// result lies exactly halfway between two doubles; then nil, and `strtod` decides.
    @inline(__always)
    private static func extended(_ mantissa: UInt64, _ power: Int) -> Double? {
        let magnitude = power < 0 ? -power : power
        let scale = magnitude <= 22 ? Float80(Self.power(magnitude)) : Float80(Self.power(22)) * Float80(Self.power(magnitude - 22))
        let m = Float80(mantissa)
        let rounded = power < 0 ? m / scale : m * scale
        // The 11 bits a double drops: exactly 100…0 is a tie.
        if rounded.significandBitPattern & 0x7FF == 0x400 { return nil }
        return Double(rounded)
    }
    #endif
}
