import SiseCore
import Testing

/// CSV exports a spreadsheet opens as text, never as a formula (CSV injection), and Sise's import
/// reads its own export back unchanged.
@Suite struct SpreadsheetCellTests {
    @Test(arguments: [
        (#"=HYPERLINK("http://evil.example","x")"#, #"'=HYPERLINK("http://evil.example","x")"#),
        ("+1", "'+1"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"), ("\tcmd", "'\tcmd"), ("\rcmd", "'\rcmd"),
        ("'=already", "''=already"), ("'plain", "'plain"), ("x=1", "x=1"), ("비트코인 =", "비트코인 ="), ("", ""),
    ])
    func formulaStartsAreWrittenAsText(_ text: String, _ cell: String) {
        #expect(SpreadsheetCell.escape(text) == cell)
        #expect(SpreadsheetCell.unescape(cell) == text)
    }

    /// Every string of up to five characters from the tricky ones reads back as it was written.
    @Test func everyTextReadsBackUnchanged() {
        let alphabet: [String] = ["'", "=", "+", "-", "@", "\t", "\r", "a", ","]
        var texts = [""]
        var failures: [String] = []
        for _ in 0..<5 {
            texts = texts.flatMap { text in alphabet.map { text + $0 } }
            for text in texts where SpreadsheetCell.unescape(SpreadsheetCell.escape(text)) != text { failures.append(text) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).map(\.debugDescription))")
    }

    /// The apostrophes before a formula start are the sender's to choose: a cell of 1,000,000 of
    /// them (a 1 MB note) is judged without a stack frame each (it overflowed the stack at ~30,000).
    @Test func aMillionApostrophesAreJudgedWithoutRecursion() {
        let apostrophes = String(repeating: "'", count: 1_000_000)
        #expect(SpreadsheetCell.escape(apostrophes) == apostrophes)
        #expect(SpreadsheetCell.escape(apostrophes + "=1") == "'" + apostrophes + "=1")
        #expect(SpreadsheetCell.unescape("'" + apostrophes + "=1") == apostrophes + "=1")
    }

    @Test func aPortfolioExportOpensAsTextAndImportsBackUnchanged() throws {
        let notes = [#"=HYPERLINK("http://evil.example","x")"#, "+82 10", "'=quoted", "@home", "평범한 메모"]
        var csv = PortfolioCSV.header.joined(separator: ",") + "\r\n"
        for (index, note) in notes.enumerated() {
            csv += "buy,upbit,KRW-BTC,0.1,90000000,0,2026-11-2\(index)T09:00:00Z,\"\(note.replacingOccurrences(of: "\"", with: "\"\""))\"\r\n"
        }
        // A note written by hand with a leading apostrophe is the spreadsheet's "this is text".
        var counter = 0
        let imported = try PortfolioCSV.decode(csv) {
            counter += 1
            return "t\(counter)"
        }
        #expect(imported.map(\.note) == [#"=HYPERLINK("http://evil.example","x")"#, "+82 10", "=quoted", "@home", "평범한 메모"])
        let exported = PortfolioCSV.encode(imported)
        #expect(exported.contains(#""'=HYPERLINK(""http://evil.example"",""x"")""#))
        #expect(exported.contains(",'+82 10\r\n") && exported.contains(",'=quoted\r\n") && exported.contains(",'@home\r\n"))
        for line in exported.split(separator: "\r\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(cells.allSatisfy { cell in !["=", "+", "-", "@"].contains(cell.first.map(String.init) ?? "") }, "\(line)")
        }
        let again = try PortfolioCSV.decode(exported) {
            counter += 1
            return "t\(counter)"
        }
        #expect(again.map(\.note) == imported.map(\.note))
        #expect(PortfolioCSV.encode(again) == exported)
    }
}
