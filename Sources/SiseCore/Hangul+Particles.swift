/// Korean particles that change with the sound before them (은/는, 이/가, 을/를, 과/와, 으로/로):
/// the one a reader expects after a value written into a sentence, instead of "은(는)".
extension Hangul {
    /// Whether `word`, read aloud, ends in a consonant (받침): the last Hangul syllable's final,
    /// or the Korean reading of a final Latin letter or digit (`BTC` → 씨: no; `KRW-XRP` → 피: no;
    /// `SOL` → 엘: yes; `10` → 영: yes). Quotes, brackets and spaces after the word are skipped.
    /// nil when nothing readable ends it.
    public static func endsInConsonant(_ word: String) -> Bool? {
        guard let last = word.last(where: { $0.isLetter || $0.isNumber }), let scalar = last.unicodeScalars.first else { return nil }
        if syllableRange.contains(scalar.value) { return (scalar.value - 0xAC00) % 28 != 0 }
        // The letters whose Korean names end in a consonant: 엘, 엠, 엔, 알; digits 영, 일, 삼, 육, 칠, 팔.
        switch Character(String(last).uppercased()) {
        case "L", "M", "N", "R", "0", "1", "3", "6", "7", "8": return true
        case let other where other.isASCII: return false
        default: return nil
        }
    }

    /// The particle of `pair` that follows `word` (`"은"` → 은 or 는); the bracketed form when
    /// the word's last sound cannot be read.
    public static func particle(after word: String, _ pair: String) -> String? {
        guard let (consonant, vowel) = particles[pair] else { return nil }
        switch endsInConsonant(word) {
        case true?: return consonant
        case false?: return vowel
        case nil: return "\(consonant)(\(vowel))"
        }
    }

    /// Each particle by either of its forms: (after a consonant, after a vowel).
    static let particles: [String: (String, String)] = [
        "은": ("은", "는"), "는": ("은", "는"), "이": ("이", "가"), "가": ("이", "가"), "을": ("을", "를"), "를": ("을", "를"),
        "과": ("과", "와"), "와": ("과", "와"), "으로": ("으로", "로"), "로": ("으로", "로"),
    ]
}
