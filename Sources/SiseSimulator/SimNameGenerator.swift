import Foundation

/// Invents plausible listings (`노바체인 NovaChain NVC`) to fill the board to Upbit's size.
struct SimNameGenerator {
    private static let stems: [(String, String)] = [
        ("Nova", "노바"), ("Astra", "아스트라"), ("Lumi", "루미"), ("Orbi", "오르비"), ("Zeta", "제타"),
        ("Kora", "코라"), ("Vela", "벨라"), ("Miro", "미로"), ("Sola", "솔라"), ("Hexa", "헥사"),
        ("Quanta", "콴타"), ("Pixel", "픽셀"), ("Echo", "에코"), ("Delta", "델타"), ("Sigma", "시그마"),
        ("Polar", "폴라"), ("Nexa", "넥사"), ("Aura", "아우라"), ("Rivo", "리보"), ("Gaia", "가이아"),
        ("Cosmo", "코스모"), ("Mira", "미라"), ("Onyx", "오닉스"), ("Rune", "룬"), ("Vito", "비토"),
        ("Zephy", "제피"), ("Hana", "하나"), ("Bora", "보라"), ("Dami", "다미"), ("Sori", "소리"),
        ("Maru", "마루"), ("Nuri", "누리"), ("Gama", "가마"), ("Tori", "토리"), ("Yuna", "유나"),
    ]
    private static let suffixes: [(String, String)] = [
        ("Chain", "체인"), ("Coin", "코인"), ("Swap", "스왑"), ("Verse", "버스"), ("Link", "링크"),
        ("Protocol", "프로토콜"), ("Network", "네트워크"), ("Pay", "페이"), ("Finance", "파이낸스"),
        ("X", "엑스"), ("Token", "토큰"), ("Labs", "랩스"), ("Fi", "파이"), ("DAO", "다오"), ("Bit", "비트"),
    ]

    /// `count` distinct names whose symbols avoid `taken`.
    static func generate(count: Int, taken: Set<String>, random: inout SimRandom) -> [(symbol: String, korean: String, english: String)] {
        var pairs: [(Int, Int)] = []
        for s in stems.indices { for x in suffixes.indices { pairs.append((s, x)) } }
        pairs.shuffle(using: &random)
        var used = taken
        var out: [(symbol: String, korean: String, english: String)] = []
        for (s, x) in pairs where out.count < count {
            let (stemEn, stemKo) = stems[s]
            let (suffixEn, suffixKo) = suffixes[x]
            let english = suffixEn.count <= 3 ? stemEn + suffixEn : "\(stemEn) \(suffixEn)"
            guard let symbol = symbol(stem: stemEn, suffix: suffixEn, used: used) else { continue }
            used.insert(symbol)
            out.append((symbol, stemKo + suffixKo, english))
        }
        return out
    }

    private static func symbol(stem: String, suffix: String, used: Set<String>) -> String? {
        let s: String = stem.uppercased()
        let x: String = suffix.uppercased()
        var candidates: [String] = []
        candidates.append(String(s.prefix(3)) + String(x.prefix(1)))
        candidates.append(String(s.prefix(2)) + String(x.prefix(2)))
        candidates.append(String(s.prefix(4)))
        candidates.append(String(s.prefix(1)) + String(x.prefix(3)))
        candidates.append(String(s.prefix(3)) + String(x.suffix(1)))
        return candidates.first { !used.contains($0) }
    }
}
