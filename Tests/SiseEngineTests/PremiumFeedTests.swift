import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// The premium's feed against the simulator: one Binance connection however many follow it,
/// REST while the stream is refused, and the bank rate falling back to Upbit's USDT (saying so).
@Suite(.serialized) struct PremiumFeedTests {
    func feed(_ simulator: RunningSimulator, fx: FXSource, dunamu: URL? = nil, transport: LiveHTTPTransport) -> (PremiumFeed, LiveBoard) {
        let wired = SimulatedPremium.feed(simulator, fx: fx, transport: transport, dunamu: dunamu)
        return (wired.feed, wired.board)
    }

    @Test func oneConnectionForEveryFollowerAndPremiumsThatAddUp() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let (feed, _) = feed(simulator, fx: .upbitUSDT, transport: transport)
            let running = ServiceTask(feed)
            let followers = (0..<50).map { _ in feed.updates() }
            try await expectEventually(timeout: .seconds(10)) { feed.inputs.global["BTC"] != nil && feed.inputs.fx != nil }
            #expect(try await SimAdmin.binance(simulator)["wsOpen"] == 1, "fifty followers, one upstream socket")
            // The first figures may come by REST (the stream was not up yet); the stream takes over.
            try await expectEventually(timeout: .seconds(10)) { feed.status.global == "live" }
            #expect(feed.inputs.fx?.source == .upbitUSDT)
            // The simulation prices each coin abroad at a +0.5 … +3 % premium over its Upbit USDT.
            let inputs = feed.inputs
            let btc = try #require(inputs.global["BTC"])
            let rate = try #require(inputs.fx)
            let premium = try #require(KimchiPremium.premium(krwPrice: btc.price * rate.krwPerUSD * 1.01, global: btc, fx: rate, now: inputs.now))
            #expect(abs(premium - 0.01) < 1e-9)
            _ = followers
            await running.stop()
            await transport.shutdown()
        }
    }

    @Test func restStandsInWhileTheStreamIsRefused() async throws {
        try await withSimulator { simulator in
            try await SimAdmin.setBinance(simulator, #"{"wsRefuse":true}"#)
            let transport = LiveHTTPTransport()
            let (feed, _) = feed(simulator, fx: .upbitUSDT, transport: transport)
            let running = ServiceTask(feed)
            try await expectEventually(timeout: .seconds(10)) { feed.inputs.global["BTC"] != nil }
            #expect(feed.status.global == "polling")
            #expect((try await SimAdmin.binance(simulator)["restCalls"] ?? 0) >= 1)
            await running.stop()
            await transport.shutdown()
        }
    }

    @Test func theBankRateFallsBackToUpbitsUSDTAndSaysSo() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let (good, _) = feed(simulator, fx: .dunamu, transport: transport)
            let running = ServiceTask(good)
            try await expectEventually(timeout: .seconds(10)) { good.inputs.fx?.source == .dunamu }
            #expect(good.status.fxFallback == false)
            await running.stop()
            let (broken, _) = feed(simulator, fx: .dunamu, dunamu: URL(string: "http://127.0.0.1:1")!, transport: transport)
            let second = ServiceTask(broken)
            try await expectEventually(timeout: .seconds(10)) { broken.inputs.fx?.source == .upbitUSDT }
            #expect(broken.status.fxFallback && broken.status.fxSource == .dunamu)
            await second.stop()
            await transport.shutdown()
        }
    }
}
