import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// Candles for charts: one upstream call however many viewers ask at once, and a quick
/// refusal instead of a growing queue when too many different charts are asked for.
@Suite(.serialized) struct CandleCacheTests {
    @Test func twoHundredConcurrentChartsOfOneMarketCostOneCall() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            let cache = CandleCache(api: V1QuotationClient(configuration: .init(baseURL: simulator.baseURL), transport: transport))
            let btc = MarketID("KRW-BTC")!
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 {
                    group.addTask { try await cache.candles(market: btc, unit: .minutes(10), count: 144, to: nil).count }
                }
                for try await count in group { #expect(count == 144) }
            }
            _ = try await cache.candles(market: btc, unit: .minutes(10), count: 144, to: nil)
            #expect(try await SimAdmin.stats(simulator)["upbit"]?["candles"] == 1)
            await transport.shutdown()
        }
    }

    @Test func tooManyDifferentFetchesAreRefusedAtOnce() async throws {
        var faults = SimFaults()
        faults.latencyMs = 600
        try await withSimulator(SimulatorConfiguration(faults: faults)) { simulator in
            let transport = LiveHTTPTransport()
            let cache = CandleCache(api: V1QuotationClient(configuration: .init(baseURL: simulator.baseURL), transport: transport), maxFetches: 3)
            let markets = ["BTC", "ETH", "XRP", "SOL", "DOGE", "ADA"].map { MarketID("KRW-\($0)")! }
            let started = ContinuousClock.now
            let busy = await withTaskGroup(of: Int.self) { group in
                for market in markets {
                    group.addTask {
                        do { _ = try await cache.candles(market: market, unit: .days, count: 7, to: nil) } catch is CandleCache.Busy {
                            return 1
                        } catch {}
                        return 0
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(busy == 3, "three fetched, three told to come back")
            #expect(started.duration(to: .now) < .seconds(5))
            await transport.shutdown()
        }
    }
}
