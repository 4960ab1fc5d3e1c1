import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// The premium matrix's venues against the simulator, on a driven clock: nobody looks, nobody is
/// asked; a look starts one poller per venue; a minute without one and they rest again.
@Suite(.serialized) struct GlobalPricesTests {
    @Test func pollersRunOnlyWhileSomeoneLooks() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let clock = ManualClock()
            let venues: [GlobalVenue] = [.okx, .bybit]
            let prices = GlobalPrices(
                apis: Dictionary(
                    uniqueKeysWithValues: venues.map { venue in
                        let spec = GlobalVenueRegistry.spec(venue)
                        return (venue, spec.api(spec.simulated(at: simulator.baseURL), transport: transport))
                    }
                ),
                binance: nil,
                clock: clock.wall,
                pace: clock,
                logger: Logger(label: "test")
            )
            let running = ServiceTask(prices)
            func calls(_ venue: GlobalVenue) async throws -> Int {
                let (_, data) = try await SimAdmin.get(simulator, "/_sim/" + venue.rawValue)
                return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["calls"] as? Int ?? -1
            }
            // Both pollers wait for a look, having asked nothing.
            try await expectEventually { clock.sleepers == 2 }
            let (okxBefore, bybitBefore) = (try await calls(.okx), try await calls(.bybit))
            #expect(okxBefore == 0 && bybitBefore == 0)
            #expect(prices.status(.okx).state == "waiting")

            // A look: each venue asked once, its prices in.
            _ = prices.quotes()
            try await expectEventually { prices.status(.okx).state == "live" && prices.status(.bybit).state == "live" && clock.sleepers == 2 }
            let (okxOnce, bybitOnce) = (try await calls(.okx), try await calls(.bybit))
            #expect(okxOnce == 1 && bybitOnce == 1)
            let quotes = prices.quotes()
            #expect((quotes[.okx]?["BTC"]?.price ?? 0) > 0 && (quotes[.bybit]?["BTC"]?.price ?? 0) > 0)

            // Polled at the venue's pace while looked at.
            clock.advance(by: GlobalVenueRegistry.spec(.okx).pollInterval)
            try await expectEventually { (try await calls(.okx)) == 2 && clock.sleepers == 2 }

            // A minute and more without a look: both rest, and asking stops.
            clock.advance(by: .seconds(61))
            try await expectEventually { prices.status(.okx).state == "idle" && prices.status(.bybit).state == "idle" && clock.sleepers == 2 }
            let asked = try await calls(.okx)
            clock.advance(by: .seconds(30))
            try await expectEventually { clock.sleepers == 2 }
            #expect(try await calls(.okx) == asked, "nobody looks, nobody is asked")

            // A refusal is waited out as the venue says, then polling goes on.
            try await SimAdmin.post(simulator, "/_sim/okx", #"{"failNext":1}"#)
            _ = prices.quotes()
            try await expectEventually { prices.status(.okx).state == "failing" && clock.sleepers == 2 }
            #expect(prices.status(.okx).problem != nil)
            clock.advance(by: .seconds(2))
            try await expectEventually { prices.status(.okx).state == "live" }
            await running.stop()
            await transport.shutdown()
        }
    }
}
