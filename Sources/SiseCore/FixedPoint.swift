/// A double printed with a fixed number of decimals exactly as C's `printf("%.*f")` prints it:
/// the exact binary value, rounded half to even. Done in integers — the double's 53-bit
/// significand times a power of ten, shifted by its exponent in 128 bits — because the varargs
/// call into `vsnprintf` cost three quarters of a price's formatting (Swift boxes each argument
/// and casts it back). Values whose scaled form needs more than 128 bits are left to printf.
enum FixedPoint {
    static let maxPlaces = 12
    /// The longest output: a sign, 39 digits of a UInt128 and a point.
    static let capacity = 48

    private static let powersOfTen: [UInt128] = (0...maxPlaces).map { places in
        (0..<places).reduce(UInt128(1)) { power, _ in power * 10 }
    }

    /// Writes `value` (finite) with `places` decimals (0...12) into `out` (at least `capacity`
    /// bytes) as `%.*f` would; the number of bytes, or nil when printf must do it.
    static func print(_ value: Double, places: Int, into out: UnsafeMutableRawBufferPointer) -> Int? {
        guard value.isFinite, (0...maxPlaces).contains(places), out.count >= capacity,
            let scaled = scaledAndRounded(value.magnitude, places: places)
        else { return nil }
        // The digits go to the end of `out` first (at least places + 1 of them, zero-padded),
        // then forward into place around the point; the copy reads ahead of where it writes.
        let digits =
            if let small = UInt64(exactly: scaled) {
                writeDigits(small, atLeast: places + 1, into: out)
            } else {
                writeDigits(scaled, atLeast: places + 1, into: out)
            }
        var source = out.count - digits
        var count = 0
        if value.sign == .minus {
            out[count] = UInt8(ascii: "-")
            count += 1
        }
        for index in 0..<digits {
            if index == digits - places {
                out[count] = UInt8(ascii: ".")
                count += 1
            }
            out[count] = out[source]
            count += 1
            source += 1
        }
        return count
    }

    /// The decimal digits of `value`, zero-padded to `minimum`, written at the end of `out`.
    private static func writeDigits<T: FixedWidthInteger & UnsignedInteger>(
        _ value: T,
        atLeast minimum: Int,
        into out: UnsafeMutableRawBufferPointer
    ) -> Int {
        var rest = value
        var count = 0
        repeat {
            let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
            count += 1
            out[out.count - count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: digit)
            rest = quotient
        } while rest > 0 || count < minimum
        return count
    }

    /// |value| × 10^places rounded half to even, or nil past 128 bits.
    static func scaledAndRounded(_ magnitude: Double, places: Int) -> UInt128? {
        if magnitude == 0 { return 0 }
        // magnitude = mantissa × 2^shift exactly.
        let mantissa = magnitude.isNormal ? magnitude.significandBitPattern | (1 << 52) : magnitude.significandBitPattern
        let shift = magnitude.isNormal ? Int(magnitude.exponent) - 52 : -1_074
        // mantissa < 2^53 and 10^12 < 2^40: the product fits in 93 bits.
        let product = UInt128(mantissa) * powersOfTen[places]
        if shift >= 0 {
            guard shift <= 128 - 93 else { return nil }
            return product << shift
        }
        let right = -shift
        // Less than half of 2^right: rounds to zero.
        guard right < 128 else { return 0 }
        let quotient = product >> right
        let remainder = product - (quotient << right)
        let half = UInt128(1) << (right - 1)
        if remainder > half || (remainder == half && quotient & 1 == 1) { return quotient + 1 }
        return quotient
    }
}
