import Foundation
import SiseCore
import SiseEngine
import SiseSimulator
import SiseTestSupport
import Testing

extension LiveBoardTests {
    /// Regression (live truth, defect 2): after a dropped socket and a reconnect the stream
    /// multiplied — every reconnect left a resubscribe loop spinning, each subscribe bringing a
    /// full snapshot of every market. Upstream frames, subscribes and applied ticks must agree
    /// after any number of reconnects: one subscribe per connection.
    @Test func reconnectsDoNotMultiplyTheStream() async throws {
        var faults = SimFaults()
        faults.wsRate = 100
        faults.wsDropEverySeconds = 1.5
        try await withBoard(faults) { h in
            try await expectEventually(timeout: .seconds(10)) { h.state == .live }
            let before = try await SimAdmin.stats(h.simulator)["upbit"] ?? [:]
            let appliedBefore = await h.board.appliedTicks
            // The window: until the board has connected three times more (the simulator drops the
            // socket every 1.5 s) — a condition, not a span hoped to be long enough.
            let opened = ContinuousClock.now
            var after = before
            try await expectEventually(timeout: .seconds(20), "three reconnections") {
                after = try await SimAdmin.stats(h.simulator)["upbit"] ?? [:]
                return (after["websocket"] ?? 0) - (before["websocket"] ?? 0) >= 3
            }
            let seconds = Int(((ContinuousClock.now - opened) / .seconds(1)).rounded(.up))
            let appliedAfter = await h.board.appliedTicks
            func delta(_ key: String) -> Int { (after[key] ?? 0) - (before[key] ?? 0) }
            let connects = delta("websocket")
            let subscribes = delta("websocket-subscribe")
            let frames = delta("websocket-frames")
            let polls = delta("ticker")
            let markets = h.board.snapshot.rows.count
            #expect(connects >= 3, "the simulator dropped the socket every 1.5 s")
            #expect(abs(subscribes - connects) <= 1, "one subscribe per connection: \(subscribes) for \(connects)")
            // 100 frames/s plus one snapshot of every market per connection.
            #expect(frames <= seconds * 100 + (connects + 1) * markets + 100, "frames \(frames) in \(seconds) s")
            let applied = appliedAfter - appliedBefore
            // The socket is read at each flush, so frames sent just before the window opened may
            // be applied inside it: at most one snapshot and a read interval's frames more.
            let unread = markets + 25
            #expect(applied <= frames + polls * markets + unread, "applied \(applied) of \(frames) frames and \(polls) polls")
            #expect(applied >= frames / 2, "applied \(applied) of \(frames) frames")
        }
    }
}
