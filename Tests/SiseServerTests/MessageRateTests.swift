import Testing

@testable import SiseServer

/// The `/ws` message limit (20): a steady page is never cut off however its messages bunch on
/// the way; a faster one, or one burst past the limit, is.
@Suite struct MessageRateTests {
    /// `count` messages at `perSecond`, delivered `bunch` at a time (as a stalled network or a
    /// busy machine hands them over): the index of the first refused, if any.
    static func firstRefused(perSecond: Double, count: Int, bunch: Int) -> Int? {
        var rate = MessageRate(perSecond: 20)
        let start = ContinuousClock.now
        for index in 0..<count {
            let sent = Double(index - index % bunch) / perSecond
            if !rate.admit(at: start + .milliseconds(Int(sent * 1_000))) { return index }
        }
        return nil
    }

    @Test(arguments: [1, 3, 6, 12])
    func aSteady18ASecondPassesInAnyBunches(bunch: Int) {
        #expect(Self.firstRefused(perSecond: 18, count: 18 * 30, bunch: bunch) == nil)
    }

    @Test(arguments: [1, 3, 6])
    func aSteady30ASecondIsCutOffWithinTwoSeconds(bunch: Int) throws {
        let refused = try #require(Self.firstRefused(perSecond: 30, count: 30 * 10, bunch: bunch))
        #expect(refused <= 30 * 2 + bunch)
    }

    @Test func aBurstPastTheLimitIsRefused() {
        #expect(Self.firstRefused(perSecond: 10_000, count: 100, bunch: 100) == 20)
    }
}
