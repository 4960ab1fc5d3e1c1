import Foundation
import SiseTestSupport
import Testing

/// The faces render what the core decided. This reads their source and fails on the two
/// slips that matter most: a user-visible Korean string spelled in a face (it belongs in
/// SiseCore's `UIText`), and a rise/fall colour decided in a face (it belongs to `Tone`). Simple
/// on purpose: Hangul outside comments, and sign or direction tests next to colours.
@Suite struct FaceLiteralLintTests {
    static let root = RealFixtures.packageRoot
    static let faces = ["Sources/SiseTUI", "Sources/sise", "Sources/SiseServer"]
    /// Brand and help text that is the same in both languages.
    static let allowed = [" 시세 Sise ", "시세 — a real-time", "초성 (ㅂㅌ)", "\"한\""]
    /// Where a tone becomes a colour: the one mapping per face.
    static let colourMaps: Set<String> = ["Terminal.swift", "CellStyle.swift"]

    static func files() -> [URL] {
        faces.flatMap { folder -> [URL] in
            let base = root.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            return (walker?.allObjects as? [URL] ?? []).filter { ["swift", "js"].contains($0.pathExtension) }
        }
    }

    static func codeLines(_ file: URL) -> [(Int, String)] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("//") || trimmed.hasPrefix("*") || trimmed.hasPrefix("/*") { return nil }
            // Drop a trailing comment (good enough for this code base's style).
            let code = line.range(of: " // ").map { String(line[..<$0.lowerBound]) } ?? String(line)
            return (index + 1, code)
        }
    }

    @Test func facesSpellNoKoreanStrings() throws {
        let files = Self.files()
        #expect(files.count > 40, "the faces were found")
        var found: [String] = []
        for file in files {
            for (number, line) in Self.codeLines(file) where line.unicodeScalars.contains(where: { (0xAC00...0xD7A3).contains($0.value) }) {
                if Self.allowed.contains(where: line.contains) { continue }
                found.append("\(file.lastPathComponent):\(number): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "Korean text belongs in SiseCore's UIText:\n\(found.joined(separator: "\n"))")
    }

    @Test func facesDecideNoRiseOrFallColours() throws {
        let patterns = [#"==\s*\.(rise|fall)\b"#, #"\.(rise|fall)\s*\?"#, #"[<>]\s*0\s*\?\s*[."]"#, #"\\u\{1B\}\[3"#]
        let regexes = try patterns.map { try NSRegularExpression(pattern: $0) }
        var found: [String] = []
        for file in Self.files() where !Self.colourMaps.contains(file.lastPathComponent) {
            for (number, line) in Self.codeLines(file) {
                let range = NSRange(line.startIndex..., in: line)
                if regexes.contains(where: { $0.firstMatch(in: line, range: range) != nil }) {
                    found.append("\(file.lastPathComponent):\(number): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "rise/fall colours come from Tone:\n\(found.joined(separator: "\n"))")
    }
}
