import Foundation
import SiseCore
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

/// The silence rule on an injected clock: a stalled socket is given up exactly when the clock
/// passes the bound after its last data frame — not before — and the stream reconnects.
@Suite(.serialized) struct SilenceWatchdogTests {
    final class EventLog: Sendable {
        private let events = Mutex<[TickerStreamEvent]>([])
        func add(_ event: TickerStreamEvent) { events.withLock { $0.append(event) } }
        var tickers: Int { events.withLock { $0.filter { if case .ticker = $0 { true } else { false } }.count } }
        var timeouts: Int { events.withLock { $0.filter { $0 == .disconnected(.timeout) }.count } }
    }

    @Test func aStalledSocketIsGivenUpAtTheBoundAndNotBefore() async throws {
        try await withSimulator { simulator in
            let clock = ManualClock()
            let url = TickerStreamConfiguration.webSocketURL(forREST: simulator.baseURL)
            let stream = TickerStream(configuration: .init(url: url, silenceTimeout: .seconds(5)), clock: clock)
            let log = EventLog()
            let codes = [MarketID("KRW-BTC")!, MarketID("KRW-ETH")!]
            let task = Task { await stream.run(codes: { codes }, events: { log.add($0) }) }
            defer { task.cancel() }
            try await expectEventually(timeout: .seconds(10)) { log.tickers > 3 }

            try await SimAdmin.setFaults(simulator, #"{"wsStall":true}"#)
            try await Task.sleep(for: .milliseconds(300))  // frames already in flight land
            // 4.8 s on: the keep-alive wakes and pings; once everything woken sleeps again, the
            // watchdog has had its chance to give up, and has not.
            let asleep = clock.sleepers
            clock.advance(by: .milliseconds(4_800))
            try await expectEventually(timeout: .seconds(5), "the woken keep-alive sleeps again") { clock.sleepers == asleep }
            #expect(log.timeouts == 0, "4.8 s of silence is inside the 5 s bound")
            clock.advance(by: .milliseconds(400))
            try await expectEventually(timeout: .seconds(2)) { log.timeouts == 1 }

            try await SimAdmin.setFaults(simulator, #"{"wsStall":false}"#)
            let before = log.tickers
            try await expectEventually(timeout: .seconds(5)) { log.tickers > before + 3 }
            task.cancel()
            await task.value
        }
    }
}
