import Foundation

/// Byte-level JSON number parsing for the ticker hot path. Exact: the fast path is taken only
/// when the decimal fits in 53 bits and the power of ten is exact (Clinger's fast path);
/// anything else goes to `strtod`, which rounds correctly.
enum FastNumber {
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

    /// Parses the number starting at `start`; returns the value and the index after it.
    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (Double, Int)? {
        var i = start
        var negative = false
        if i < end && p[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var exact = true
        var pendingZeros = 0
        var sawDigit = false
        // Integer part.
        while i < end, p[i] &- 48 < 10 {
            sawDigit = true
            let d = UInt64(p[i] &- 48)
            if digits < 19 {
                if mantissa != 0 || d != 0 { mantissa = mantissa * 10 + d; digits += mantissa == 0 ? 0 : 1 }
            } else {
                exponent += 1
                if d != 0 { exact = false }
            }
            i += 1
        }
        // Fraction: trailing zeros (`102417000.00000000`) never reach the mantissa.
        if i < end && p[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, p[i] &- 48 < 10 {
                sawDigit = true
                let d = UInt64(p[i] &- 48)
                if d == 0 {
                    pendingZeros += 1
                } else {
                    if digits + pendingZeros + 1 <= 19 {
                        for _ in 0..<pendingZeros { mantissa *= 10 }
                        if mantissa != 0 { digits += pendingZeros }
                        exponent -= pendingZeros + 1
                        mantissa = mantissa * 10 + d
                        digits += 1
                    } else {
                        exact = false
                    }
                    pendingZeros = 0
                }
                i += 1
            }
        }
        guard sawDigit else { return nil }
        if i < end && (p[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            var expNegative = false
            if i < end && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) {
                expNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var sawExp = false
            while i < end, p[i] &- 48 < 10 {
                if e < 10_000 { e = e * 10 + Int(p[i] &- 48) }
                sawExp = true
                i += 1
            }
            guard sawExp else { return nil }
            exponent += expNegative ? -e : e
        }
        if mantissa == 0 && exact { return (negative ? -0.0 : 0, i) }
        if exact && mantissa <= (1 << 53) && exponent >= -22 && exponent <= 22 {
            var value = Double(mantissa)
            value = exponent < 0 ? value / power(-exponent) : value * power(exponent)
            return (negative ? -value : value, i)
        }
        return (slow(p, start, i), i)
    }

    /// `strtod` on a copy of the bytes (numbers are short).
    private static func slow(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        let count = end - start
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            for k in 0..<count { buffer[k] = CChar(bitPattern: p[start + k]) }
            buffer[count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }
}
