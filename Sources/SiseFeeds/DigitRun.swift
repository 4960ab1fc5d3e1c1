/// The ASCII digits that lead eight bytes, read at once (SWAR): how many there are, their value
/// without trailing zeros, and how many trailing zeros were dropped. `12300,"x` → 5 digits,
/// significand 123, 2 trailing zeros.
struct DigitRun {
    let count: Int
    let significand: UInt64
    let trailingZeros: Int

    /// One digit byte, already checked.
    @inline(__always)
    init(digit: UInt8) {
        let value = UInt64(digit &- 48)
        count = 1
        significand = value
        trailingZeros = value == 0 ? 1 : 0
    }

    /// The digits at the start of the eight bytes at `p`; all eight must be readable.
    @inline(__always)
    init(_ p: UnsafePointer<UInt8>) {
        // First byte lowest, whatever the machine's byte order.
        let word = Self.word(p)
        let count = Self.count(word)
        self.count = count
        guard count > 0 else {
            significand = 0
            trailingZeros = 0
            return
        }
        // Digit values, the run moved to the top bytes and the bytes after it shifted out. A byte
        // after the run may borrow in the subtraction, but only from bytes after it.
        let digits = (word &- 0x3030_3030_3030_3030) &<< UInt64(64 - 8 * count)
        guard digits != 0 else {
            significand = 0
            trailingZeros = count
            return
        }
        let zeros = digits.leadingZeroBitCount >> 3
        trailingZeros = zeros
        significand = Self.value(digits &<< UInt64(8 * zeros))
    }

    /// The eight bytes at `p`, the first lowest whatever the machine's byte order.
    @inline(__always)
    static func word(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// How many of the word's bytes, from the lowest, are ASCII digits. A byte is one when its
    /// high nibble is 3 and its low nibble plus 6 stays below 16; neither test carries into the
    /// next byte.
    @inline(__always)
    static func count(_ word: UInt64) -> Int {
        let highNibble = (word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030
        let lowNibble = ((word & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
        return (highNibble | lowNibble).trailingZeroBitCount >> 3
    }

    /// The index after the digits that start at `start`, eight bytes a step.
    @inline(__always)
    static func end(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var i = start
        while i + 8 <= end {
            let count = Self.count(word(p + i))
            i += count
            if count < 8 { return i }
        }
        while i < end, p[i] &- 48 < 10 { i += 1 }
        return i
    }

    /// The number eight digit values spell, the first in the lowest byte (zeros there lead).
    @inline(__always)
    static func value(_ digits: UInt64) -> UInt64 {
        // Neighbouring digits to pairs (byte 2k holds 10·d₂ₖ + d₂ₖ₊₁), then pairs to the whole.
        let pairs = digits &* 10 &+ (digits >> 8)
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let first = (pairs & mask) &* (100 &+ (1_000_000 << 32))
        let second = ((pairs >> 16) & mask) &* (1 &+ (10_000 << 32))
        return (first &+ second) >> 32
    }
}
