import Foundation

/// Hangul helpers for 초성 (initial consonant) search.
public enum Hangul {
    /// The 19 initial consonants in syllable order, as compatibility jamo (what keyboards type).
    static let initials: [Character] = [
        "ㄱ", "ㄲ", "ㄴ", "ㄷ", "ㄸ", "ㄹ", "ㅁ", "ㅂ", "ㅃ", "ㅅ",
        "ㅆ", "ㅇ", "ㅈ", "ㅉ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ",
    ]
    private static let initialSet = Set(initials)
    static let syllableRange: ClosedRange<UInt32> = 0xAC00...0xD7A3

    /// The initial consonant of a precomposed syllable (`비` → `ㅂ`), nil for anything else.
    public static func initial(of character: Character) -> Character? {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
            syllableRange.contains(scalar.value)
        else { return nil }
        return initials[Int((scalar.value - 0xAC00) / 588)]
    }

    /// True for a bare initial consonant such as `ㅂ`.
    public static func isInitialConsonant(_ character: Character) -> Bool {
        initialSet.contains(character)
    }

    /// Whether a typed character matches a character of a name: equal, or a bare consonant
    /// that is the initial of the name's syllable (`ㅌ` matches `트`).
    static func matches(typed: Character, name: Character) -> Bool {
        if typed == name { return true }
        return isInitialConsonant(typed) && initial(of: name) == typed
    }
}

extension Hangul {
    /// Whether `text` holds a Hangul syllable or a bare consonant: a query only Korean names
    /// can answer (CoinGecko knows no Korean names).
    public static func isKorean(_ text: String) -> Bool {
        text.contains { initial(of: $0) != nil || isInitialConsonant($0) }
    }
}
