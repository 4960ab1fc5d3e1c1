import Foundation

/// Terminal column widths in pure Swift, independent of the process locale (Glibc's `wcwidth`
/// returns -1 without a UTF-8 locale). East Asian Wide and Fullwidth characters — Hangul,
/// CJK, fullwidth forms, most emoji — take two columns; combining marks and controls none.
public enum DisplayWidth {
    /// Columns taken by a whole string.
    public static func of(_ text: String) -> Int {
        // Prices, rates and symbols: printable ASCII is one column a byte.
        if isPrintableASCII(text) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// Whether every byte is printable ASCII (space to `~`), each one column wide and its own
    /// grapheme — the fast path of the screen's painters.
    public static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Columns taken by one grapheme cluster: its first scalar decides, an emoji
    /// presentation selector (U+FE0F) makes it wide.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count > 1 && scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return width(of: first)
    }

    /// Columns of one scalar: 0, 1 or 2.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }
        if isZeroWidth(v) { return 0 }
        return isWide(v) ? 2 : 1
    }

    private static let zeroWidth: [ClosedRange<UInt32>] = [
        0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F,
        0x0E31...0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E,
        0x1160...0x11FF,  // Hangul medial vowels and final consonants (conjoining jamo)
        0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064,
        0x20D0...0x20FF, 0xD7B0...0xD7FF, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xFEFF...0xFEFF,
        0x1F3FB...0x1F3FF, 0xE0000...0xE0FFF,
    ]

    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul initial consonants (conjoining)
        0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693,
        0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE,
        0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA,
        0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728, 0x274C...0x274C,
        0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797, 0x27B0...0x27B0,
        0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E,  // CJK radicals, punctuation
        0x3041...0x33FF,  // kana, Hangul compatibility jamo (ㄱ ㅂ …), CJK compatibility
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F,  // Hangul jamo extended-A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6,  // fullwidth forms
        0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B16F,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F251, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
        0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0,
        0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
        0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
        0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5,
        0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6EB...0x1F6EC,
        0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F93A, 0x1F93C...0x1F945,
        0x1F947...0x1F9FF, 0x1FA70...0x1FAFF,
        0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isZeroWidth(_ v: UInt32) -> Bool { contains(zeroWidth, v) }
    private static func isWide(_ v: UInt32) -> Bool { contains(wide, v) }

    /// Binary search over sorted, disjoint ranges.
    private static func contains(_ ranges: [ClosedRange<UInt32>], _ v: UInt32) -> Bool {
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            if v < ranges[mid].lowerBound { high = mid - 1 } else if v > ranges[mid].upperBound { low = mid + 1 } else { return true }
        }
        return false
    }
}
