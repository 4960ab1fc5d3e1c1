import Foundation

/// SplitMix64: a tiny, fast, seedable generator, so the same seed builds the same exchange.
struct SimRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// A stateless hash of one to four values: the building block of the price walk. Fixed
    /// arities, not a variadic list: the walk hashes twenty times per price, and an array per
    /// call was most of an idle simulator's time.
    static func hash(_ a: UInt64) -> UInt64 { fold(start, a) }
    static func hash(_ a: UInt64, _ b: UInt64) -> UInt64 { fold(fold(start, a), b) }
    static func hash(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 { fold(fold(fold(start, a), b), c) }
    static func hash(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> UInt64 { fold(hash(a, b, c), d) }

    private static let start: UInt64 = 0x243F_6A88_85A3_08D3
    private static func fold(_ h: UInt64, _ v: UInt64) -> UInt64 { mix(h ^ mix(v &+ 0x9E37_79B9_7F4A_7C15)) }

    /// A uniform double in [-1, 1) from a hash.
    static func unit(_ h: UInt64) -> Double {
        Double(h >> 11) / Double(1 << 53) * 2 - 1
    }

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Stable 64-bit hash of a string (FNV-1a), independent of Swift's per-process hash seed.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return h
    }
}
