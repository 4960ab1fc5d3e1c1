@testable import SiseServer
import Testing

/// Freed memory is given back after a crowd of pages leaves, not on every small dip.
@Suite struct MemoryTrimTests {
    @Test func trimsOnceTheCountFellFarEnoughFromItsHigh() {
        var trim = MemoryTrim(drop: 100)
        #expect(!trim.pages(0), "nothing was ever open")
        #expect(!trim.pages(500))
        #expect(!trim.pages(450), "a small dip")
        #expect(trim.pages(399), "101 below the high of 500")
        #expect(!trim.pages(350), "the high starts again from 399")
        #expect(trim.pages(0), "everyone left")
        #expect(!trim.pages(0))
    }
}
