import Testing

@testable import SiseServer

/// Freed memory is given back after a crowd of pages leaves, not on every small dip.
@Suite struct MemoryTrimTests {
    @Test func trimsOnceTheCountFellFarEnoughFromItsHigh() {
        var trim = MemoryTrim(drop: 100)
        let trimmed = [0, 500, 450, 399, 350, 0, 0].map { trim.pages($0) }
        // Nothing was ever open; 500 open; a small dip; 101 below the high of 500; the high
        // starts again from 399; everyone left; still nobody.
        #expect(trimmed == [false, false, false, true, false, true, false])
    }
}
