import Foundation

/// Byte-level JSON number parsing for the ticker hot path. Exact: digits are read eight at a
/// time (`DigitRun`) into a 64-bit decimal (`Decimal64`), which rounds to a double only where
/// one rounding is provably correct; anything else goes to `strtod`, which rounds correctly.
enum FastNumber {
    /// Parses the number starting at `start`; returns the value and the index after it.
    @inline(__always)
    static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (Double, Int)? {
        guard let (number, negative, next) = read(p, start, end) else { return nil }
        guard let value = number.value else { return (slow(p, start, next), next) }
        return (negative ? -value : value, next)
    }

    /// The decimal starting at `start`, its sign and the index after it; nil when no digit is there.
    @inline(__always)
    static func read(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> (Decimal64, negative: Bool, next: Int)? {
        var i = start
        var negative = false
        if i < end && p[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var number = Decimal64()
        let integerStart = i
        // Eight digits a step while eight bytes are there to read, then a byte a step.
        while i + 8 <= end {
            let run = DigitRun(p + i)
            if run.count == 0 { break }
            number.appendInteger(run)
            i += run.count
            if run.count < 8 { break }
        }
        while i < end, p[i] &- 48 < 10 {
            number.appendInteger(DigitRun(digit: p[i]))
            i += 1
        }
        var sawDigit = i > integerStart
        if i < end && p[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i + 8 <= end {
                let run = DigitRun(p + i)
                if run.count == 0 { break }
                number.appendFraction(run)
                i += run.count
                if run.count < 8 { break }
            }
            while i < end, p[i] &- 48 < 10 {
                number.appendFraction(DigitRun(digit: p[i]))
                i += 1
            }
            sawDigit = sawDigit || i > fractionStart
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
            number.exponent = expNegative ? -e : e
        }
        return (number, negative, i)
    }

    /// The index after the number starting at `start`, read over without its value; nil when
    /// no digit is there.
    @inline(__always)
    static func skip(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        if i < end && p[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        i = DigitRun.end(p, i, end)
        var sawDigit = i > integerStart
        if i < end && p[i] == UInt8(ascii: ".") {
            let fractionEnd = DigitRun.end(p, i + 1, end)
            sawDigit = sawDigit || fractionEnd > i + 1
            i = fractionEnd
        }
        guard sawDigit else { return nil }
        if i < end && (p[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            if i < end && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) { i += 1 }
            let exponentEnd = DigitRun.end(p, i, end)
            guard exponentEnd > i else { return nil }
            i = exponentEnd
        }
        return i
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
