import Foundation
import SiseCore
import Testing

/// An import adds each trade as many times as the file has it beyond what is already held.
@Suite struct PortfolioImportTests {
    func trade(_ id: String, _ quantity: String, at: Int64 = 1_000, note: String = "") -> PortfolioTransaction {
        PortfolioTransaction(
            id: id,
            kind: .buy,
            exchange: .upbit,
            market: MarketID("KRW-BTC")!,
            quantity: Decimal(string: quantity)!,
            price: 90_000_000,
            at: at,
            note: note
        )
    }

    @Test func theSameFileTwiceAddsNothingTheSecondTime() {
        let file = [trade("a", "0.5"), trade("b", "1", at: 2_000)]
        let again = PortfolioImport([trade("c", "0.5"), trade("d", "1", at: 2_000)], existing: file)
        #expect(again.added.isEmpty && again.alreadyThere == 2)
    }

    @Test func aLongerFileAddsOnlyItsNewRows() {
        let result = PortfolioImport([trade("c", "0.5"), trade("d", "2", at: 3_000)], existing: [trade("a", "0.5")])
        #expect(result.added.map(\.id) == ["d"] && result.alreadyThere == 1)
    }

    @Test func twoEqualFillsInOneFileStayTwoAndCountAgainstTwoHeld() {
        let first = PortfolioImport([trade("a", "1"), trade("b", "1")], existing: [])
        #expect(first.added.count == 2 && first.alreadyThere == 0)
        let second = PortfolioImport([trade("c", "1"), trade("d", "1"), trade("e", "1")], existing: first.added)
        #expect(second.added.map(\.id) == ["e"] && second.alreadyThere == 2)
    }

    @Test func oneNumberWrittenTwoWaysIsOneTradeButAnotherNoteIsAnother() {
        #expect(PortfolioImport([trade("b", "0.50")], existing: [trade("a", "0.5")]).added.isEmpty)
        #expect(PortfolioImport([trade("b", "0.5", note: "DCA")], existing: [trade("a", "0.5")]).added.count == 1)
    }

    @Test func theWordsSayWhatWasSkipped() {
        let result = PortfolioImport([trade("b", "0.5"), trade("c", "2")], existing: [trade("a", "0.5")])
        #expect(result.words(.ko) == "1건을 가져왔습니다 (1건은 이미 있어 건너뛰었습니다)")
        #expect(result.words(.en) == "imported 1 transactions (1 already there, skipped)")
        #expect(PortfolioImport([trade("c", "2")], existing: []).words(.ko) == "1건을 가져왔습니다")
    }

    @Test func aQuantityIsGroupedWithEveryPlaceAndDustIsNeverZero() {
        #expect(HoldingText.quantity(Decimal(string: "1234.5")!) == "1,234.5")
        #expect(HoldingText.quantity(Decimal(string: "0.00012345")!) == "0.00012345")
        #expect(HoldingText.quantity(Decimal(string: "1e-18")!) == "<0.00000001")
        #expect(HoldingText.quantity(0) == "0")
        #expect(HoldingText.amount(90_000_000) == "90,000,000")
    }
}
