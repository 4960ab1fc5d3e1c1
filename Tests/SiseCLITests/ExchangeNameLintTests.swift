import Foundation
import SiseCore
import SiseTestSupport
import Testing

/// An exchange is one value: outside its own files and the registry, no face names one. This
/// reads the faces' source (CLI, TUI, server, the page's scripts and HTML) and fails on an
/// exchange spelled out — an enum case (`.korbit`), an id in quotes (`"korbit"`) or a name in a
/// string (`"… Korbit …"`). The default exchange is `Exchange.default`; lists come from
/// `Exchange.allCases` or the registry.
@Suite struct ExchangeNameLintTests {
    /// The benchmarks measure each wire format, and an Upbit history, by name, on purpose.
    static let exempt: Set<String> = ["BenchCommand.swift", "SyncBench.swift"]

    static func faceFiles() -> [URL] {
        FaceLiteralLintTests.faces.flatMap { folder -> [URL] in
            let base = FaceLiteralLintTests.root.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            return (walker?.allObjects as? [URL] ?? []).filter { ["swift", "js", "html"].contains($0.pathExtension) }
        }.filter { !exempt.contains($0.lastPathComponent) }
    }

    @Test func facesNameNoExchange() throws {
        let ids = Exchange.allCases.map(\.rawValue).joined(separator: "|")
        let names = Exchange.allCases.map(\.displayName).joined(separator: "|")
        let patterns = [#"\.(\#(ids))\b"#, #"["'`](\#(ids))["'`:]"#, #""[^"\n]*\b(\#(names))\b[^"\n]*""#]
        let regexes = try patterns.map { try NSRegularExpression(pattern: $0) }
        let files = Self.faceFiles()
        #expect(files.count > 40, "the faces were found")
        var found: [String] = []
        for file in files {
            for (number, line) in FaceLiteralLintTests.codeLines(file) {
                let range = NSRange(line.startIndex..., in: line)
                if regexes.contains(where: { $0.firstMatch(in: line, range: range) != nil }) {
                    found.append("\(file.lastPathComponent):\(number): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "exchanges are named in the registry, not in faces:\n\(found.joined(separator: "\n"))")
    }
}
