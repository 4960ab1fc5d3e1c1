import Foundation
import Testing

@testable import SiseFeeds

/// Backoff, the connect gate and the connection state machine, without sockets.
@Suite struct StreamLifecycleTests {
    @Test func backoffGrowsExponentiallyWithJitterAndACap() {
        let base = Duration.milliseconds(500)
        let cap = Duration.seconds(30)
        #expect(StreamBackoff.delay(attempt: 0, base: base, cap: cap, jitter: 1) == .milliseconds(500))
        #expect(StreamBackoff.delay(attempt: 3, base: base, cap: cap, jitter: 1) == .seconds(4))
        #expect(StreamBackoff.delay(attempt: 3, base: base, cap: cap, jitter: 0) == .seconds(2))
        #expect(StreamBackoff.delay(attempt: 20, base: base, cap: cap, jitter: 1) == .seconds(30))
        #expect(StreamBackoff.delay(attempt: 200, base: base, cap: cap, jitter: 0.5) == .milliseconds(22_500))
        for attempt in 0..<12 {
            let d = StreamBackoff.delay(attempt: attempt, base: base, cap: cap, jitter: Double(attempt % 5) / 4)
            #expect(d <= cap && d >= .milliseconds(250))
        }
    }

    @Test func noMoreThanFiveConnectsInAnySecond() {
        var gate = ConnectRateGate(limit: 5, window: .seconds(1))
        let t0 = ContinuousClock.now
        for i in 0..<5 {
            #expect(gate.wait(at: t0.advanced(by: .milliseconds(i * 10))) == .zero)
            gate.record(t0.advanced(by: .milliseconds(i * 10)))
        }
        #expect(gate.wait(at: t0.advanced(by: .milliseconds(100))) == .milliseconds(900))
        #expect(gate.wait(at: t0.advanced(by: .milliseconds(1_000))) == .zero)
    }

    @Test func theMachineConnectsSubscribesAndBacksOff() {
        var machine = StreamConnectionMachine()
        #expect(machine.handle(.start, jitter: 0) == .connect)
        #expect(machine.handle(.connected, jitter: 0) == .subscribe)
        #expect(machine.handle(.frame, jitter: 0) == .none)
        // A connection that delivered data reconnects at once.
        #expect(machine.handle(.lost, jitter: 0) == .reconnect(after: .zero))
        #expect(machine.handle(.start, jitter: 0) == .connect)
        // Failed attempts back off: 0.5, 1, 2 … (jitter 1 = the full delay).
        #expect(machine.handle(.lost, jitter: 1) == .reconnect(after: .milliseconds(500)))
        _ = machine.handle(.start, jitter: 0)
        #expect(machine.handle(.lost, jitter: 1) == .reconnect(after: .seconds(1)))
        _ = machine.handle(.start, jitter: 0)
        #expect(machine.handle(.lost, jitter: 1) == .reconnect(after: .seconds(2)))
        for _ in 0..<10 {
            _ = machine.handle(.start, jitter: 0)
            _ = machine.handle(.lost, jitter: 1)
        }
        _ = machine.handle(.start, jitter: 0)
        #expect(machine.handle(.lost, jitter: 1) == .reconnect(after: .seconds(30)))
        // While the exchange's REST answers, retries come quickly.
        _ = machine.handle(.hostHealthy, jitter: 0)
        _ = machine.handle(.start, jitter: 0)
        #expect(machine.handle(.lost, jitter: 1) == .reconnect(after: .milliseconds(1_500)))
    }

    @Test func aConnectionWithoutDataDoesNotResetTheBackoff() {
        var machine = StreamConnectionMachine()
        _ = machine.handle(.start, jitter: 0)
        _ = machine.handle(.connected, jitter: 0)
        #expect(machine.handle(.lost, jitter: 1) == .reconnect(after: .milliseconds(500)))
    }

    @Test func webSocketURLFollowsTheRESTBase() {
        #expect(
            TickerStreamConfiguration.webSocketURL(forREST: URL(string: "https://api.upbit.com")!).absoluteString
                == "wss://api.upbit.com/websocket/v1"
        )
        #expect(
            TickerStreamConfiguration.webSocketURL(forREST: URL(string: "http://127.0.0.1:9000/")!).absoluteString
                == "ws://127.0.0.1:9000/websocket/v1"
        )
    }

    @Test func theRequestCarriesATicketTheFullListAndTheFormat() throws {
        let text = UpbitTickerWire.request(codes: ["KRW-BTC", "KRW-ETH"], format: .simple)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(array.count == 3)
        #expect((array[0]["ticket"] as? String)?.isEmpty == false)
        #expect(array[1]["type"] as? String == "ticker")
        #expect(array[1]["codes"] as? [String] == ["KRW-BTC", "KRW-ETH"])
        #expect(array[2]["format"] as? String == "SIMPLE")
    }
}
