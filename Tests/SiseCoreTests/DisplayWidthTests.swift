import SiseCore
import Testing

@Suite struct DisplayWidthTests {
    @Test func hangulAndCJKAreTwoColumns() {
        #expect(DisplayWidth.of("비트코인") == 8)
        #expect(DisplayWidth.of("BTC") == 3)
        #expect(DisplayWidth.of("비트코인 BTC/KRW") == 16)
        #expect(DisplayWidth.of("ㅂㅌ") == 4)
        #expect(DisplayWidth.of("比特币") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of("엑스알피(리플)") == 14)
    }

    @Test func combiningMarksAndControlsTakeNoColumns() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("\u{1100}\u{1161}") == 2)  // 가 written as conjoining jamo
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect(DisplayWidth.of("🚀") == 2)
    }

    @Test func fitPadsAndTruncatesByColumns() {
        #expect(TextColumns.fit("비트코인", width: 10) == "비트코인  ")
        #expect(TextColumns.fit("비트코인", width: 10, alignment: .right) == "  비트코인")
        let cut = TextColumns.fit("이더리움클래식", width: 9)
        #expect(cut == "이더리움…")
        #expect(DisplayWidth.of(cut) == 9)
        // A wide character never straddles the edge: padded instead.
        #expect(TextColumns.fit("비트코인캐시", width: 8) == "비트코… ")
        #expect(DisplayWidth.of(TextColumns.fit("비트코인캐시", width: 8)) == 8)
    }
}
