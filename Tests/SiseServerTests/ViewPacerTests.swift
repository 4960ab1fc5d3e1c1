import SiseCore
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseServer

/// A page's views: the first applied at once, a burst costs one more (the newest), none lands
/// after the page has gone, and an idle page keeps no task for them.
@Suite struct ViewPacerTests {
    static func view(_ q: String) throws -> ViewPacer.View {
        (try ViewParameters(quote: "KRW", sort: "value", order: "none", q: q, favorites: nil, exchange: nil), .en)
    }

    final class Applied: Sendable {
        let queries = Mutex<[String]>([])
        func add(_ view: ViewPacer.View) { queries.withLock { $0.append(view.0.search) } }
        var all: [String] { queries.withLock { $0 } }
    }

    @Test func aBurstAppliesTheFirstAndThenOnlyTheNewest() async throws {
        let applied = Applied()
        let pacer = ViewPacer(interval: .milliseconds(200)) { applied.add($0) }
        pacer.post(try Self.view("a"))
        try await expectEventually(timeout: .seconds(5)) { applied.all == ["a"] }
        for q in ["ab", "abc", "abcd"] { pacer.post(try Self.view(q)) }
        try await expectEventually(timeout: .seconds(5)) { applied.all.count == 2 && pacer.isIdle }
        #expect(applied.all == ["a", "abcd"])
        await pacer.close()
    }

    @Test func anIdlePageKeepsNoTaskForItsViews() async throws {
        let applied = Applied()
        let pacer = ViewPacer(interval: .milliseconds(50)) { applied.add($0) }
        #expect(pacer.isIdle)
        pacer.post(try Self.view("btc"))
        #expect(!pacer.isIdle)
        try await expectEventually(timeout: .seconds(5)) { pacer.isIdle }
        #expect(applied.all == ["btc"])
        // A later change starts a task again.
        pacer.post(try Self.view("eth"))
        try await expectEventually(timeout: .seconds(5)) { applied.all == ["btc", "eth"] && pacer.isIdle }
        await pacer.close()
    }

    @Test func noViewLandsAfterClose() async throws {
        let applied = Applied()
        let clock = ManualClock()
        let pacer = ViewPacer(interval: .seconds(1), clock: clock) { applied.add($0) }
        pacer.post(try Self.view("first"))
        try await expectEventually(timeout: .seconds(5)) { applied.all == ["first"] && clock.sleepers == 1 }
        pacer.post(try Self.view("waiting"))  // held for the rest of the interval
        await pacer.close()
        pacer.post(try Self.view("after"))
        #expect(clock.sleepers == 0, "nothing waits to land")
        clock.advance(by: .milliseconds(1_300))
        #expect(applied.all == ["first"])
        #expect(pacer.isIdle)
    }
}
