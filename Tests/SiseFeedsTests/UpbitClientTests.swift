import Foundation
import SiseCore
import SiseFeeds
import SiseSimulator
import SiseTestSupport
import Testing

/// The real client against the simulator over loopback.
@Suite struct UpbitClientTests {
    @discardableResult
    func withClient<T: Sendable>(
        _ configuration: SimulatorConfiguration = SimulatorConfiguration(),
        transport: LiveHTTPTransport.Configuration = .init(),
        _ body: (V1QuotationClient, RunningSimulator) async throws -> T
    ) async throws -> T {
        try await withSimulator(configuration) { simulator in
            let http = LiveHTTPTransport(configuration: transport)
            let client = V1QuotationClient(configuration: .init(baseURL: simulator.baseURL), transport: http)
            do {
                let result = try await body(client, simulator)
                await http.shutdown()
                return result
            } catch {
                await http.shutdown()
                throw error
            }
        }
    }

    @Test func marketsTickersAndTickSizes() async throws {
        try await withClient { client, _ in
            let markets = try await client.markets()
            let krw = markets.filter { $0.id.quote == "KRW" }
            #expect(krw.count >= 240)
            #expect(markets.contains { $0.id.quote == "BTC" })
            #expect(markets.contains { $0.id.quote == "USDT" })
            #expect(krw.contains { $0.warning })
            #expect(krw.first { $0.symbol == "BTC" }?.koreanName == "비트코인")
            let tickers = try await client.tickers(quotes: [.krw])
            #expect(Set(tickers.map(\.market)) == Set(krw.map(\.id)))
            let btc = try #require(tickers.first { $0.market.base == "BTC" })
            #expect(btc.price > 10_000_000 && btc.price < 1_000_000_000)
            #expect(tickers.contains { $0.price < 0.001 })
            let ticks = try await client.tickSizes(markets: [btc.market, MarketID("KRW-BTT")!])
            #expect(ticks[btc.market] == 1000)
            #expect(ticks[MarketID("KRW-BTT")!] == TickSize.parse("0.0000001"))
        }
    }

    @Test func tickersForCodesAndCandlesAgree() async throws {
        try await withClient { client, _ in
            let tickers = try await client.tickers(markets: [MarketID("KRW-BTC")!, MarketID("KRW-ETH")!])
            #expect(tickers.map(\.market.code) == ["KRW-BTC", "KRW-ETH"])
            let candles = try await client.candles(market: MarketID("KRW-BTC")!, unit: .minutes(1), count: 5, to: nil)
            #expect(candles.count == 5)
            #expect(zip(candles, candles.dropFirst()).allSatisfy { $0.start > $1.start })
            #expect(candles.allSatisfy { $0.low <= $0.open && $0.high >= $0.close })
            // The newest minute closes near the ticker's price: the same walk drives both.
            let drift = abs(candles[0].close - tickers[0].price) / tickers[0].price
            #expect(drift < 0.01)
            let days = try await client.candles(market: MarketID("KRW-BTC")!, unit: .days, count: 3, to: nil)
            #expect(days.count == 3)
            #expect(days.allSatisfy { Int($0.start.timeIntervalSince1970) % 86_400 == 0 })
        }
    }

    @Test func unknownMarketIsNotFoundWithUpbitsMessage() async throws {
        try await withClient { client, _ in
            await #expect(throws: FeedError.notFound(name: "404", message: "Code not found")) {
                _ = try await client.tickers(markets: [MarketID("KRW-NOPE")!])
            }
        }
    }

    @Test func a429IsWaitedOutAndRetried() async throws {
        try await withClient { client, simulator in
            try await SimAdmin.setFaults(simulator, #"{"failNext":1,"failNextStatus":429}"#)
            let start = ContinuousClock.now
            let tickers = try await client.tickers(markets: [MarketID("KRW-BTC")!])
            #expect(tickers.count == 1)
            #expect(ContinuousClock.now - start >= .milliseconds(950))
            #expect(try await SimAdmin.stats(simulator)["upbit"]?["ticker"] == 2)
        }
    }

    @Test func a418IsSurfacedAndNeverRetried() async throws {
        try await withClient { client, simulator in
            try await SimAdmin.setFaults(simulator, #"{"failNext":1,"failNextStatus":418}"#)
            for _ in 0..<5 {
                do {
                    _ = try await client.tickers(quotes: [.krw])
                    Issue.record("a banned group answered")
                } catch let error as FeedError {
                    guard case .blocked(let wait) = error else {
                        Issue.record("\(error)")
                        continue
                    }
                    #expect(wait != nil)
                }
            }
            // One request reached the exchange; the other four failed fast, locally.
            #expect(try await SimAdmin.stats(simulator)["upbit"]?["ticker"] == 1)
            // Other groups are not banned.
            #expect(try await client.markets().count > 250)
        }
    }

    @Test func serverErrorsAndMalformedBodiesAreTyped() async throws {
        try await withClient { client, simulator in
            try await SimAdmin.setFaults(simulator, #"{"errorRate":1,"errorStatus":503}"#)
            await #expect(throws: FeedError.server(status: 503)) { _ = try await client.markets() }
            try await SimAdmin.setFaults(simulator, #"{"errorRate":0,"malformedRate":1}"#)
            do {
                _ = try await client.tickers(quotes: [.krw])
                Issue.record("a cut body decoded")
            } catch let error as FeedError {
                guard case .malformedPayload(let context) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(context.contains("/v1/ticker/all"))
                #expect(!error.message(.ko).isEmpty && !error.message(.en).isEmpty)
            }
        }
    }

    @Test func aHangingExchangeTimesOut() async throws {
        try await withClient(transport: .init(requestTimeout: .milliseconds(800))) { client, simulator in
            try await SimAdmin.setFaults(simulator, #"{"hang":true}"#)
            await #expect(throws: FeedError.timeout) { _ = try await client.markets() }
            try await SimAdmin.setFaults(simulator, #"{"hang":false}"#)
        }
    }

    /// A refused connection is said at once (Sise's own loops retry with their backoff), not
    /// after the connect timeout of the HTTP library's own retrying.
    @Test func aClosedPortIsUnreachable() async throws {
        let simulator = try await RunningSimulator.start()
        let url = simulator.baseURL
        await simulator.stop()
        let http = LiveHTTPTransport(configuration: .init(connectTimeout: .seconds(30)))
        let client = V1QuotationClient(configuration: .init(baseURL: url), transport: http)
        let started = ContinuousClock.now
        do {
            _ = try await client.markets()
            Issue.record("a closed port answered")
        } catch let error as FeedError {
            #expect(ContinuousClock.now - started < .seconds(10), "refused is known at once, not after the 30 s connect timeout")
            guard case .unreachable(let host, _) = error else {
                Issue.record("\(error)")
                await http.shutdown()
                return
            }
            #expect(host == "127.0.0.1")
            #expect(error.message(.ko).contains("연결할 수 없습니다"))
        }
        await http.shutdown()
    }

    @Test func aBurstOf100CallsStaysWithinTenPerSecondPerGroup() async throws {
        try await withClient { client, simulator in
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await client.tickers(markets: [MarketID("KRW-BTC")!]).count }
                }
                for try await count in group { #expect(count == 1) }
            }
            let elapsed = ContinuousClock.now - start
            let stats = try await SimAdmin.stats(simulator)
            #expect(stats["upbit"]?["ticker"] == 100)
            #expect(stats["refused.upbit"]?["ticker"] == nil)
            #expect((stats["peakPerSecond.upbit"]?["ticker"] ?? 99) <= 10)
            #expect(elapsed >= .seconds(9))
        }
    }
}

@Suite struct RemainingRequestsTests {
    @Test func parsesTheHeader() {
        #expect(RemainingRequests(header: "group=ticker; min=600; sec=9") == RemainingRequests(group: "ticker", perSecond: 9))
        #expect(RemainingRequests(header: "group=crix-trades; min=600; sec=0")?.perSecond == 0)
        #expect(RemainingRequests(header: "garbage") == nil)
        #expect(RemainingRequests(header: "group=; sec=1") == nil)
    }
}
