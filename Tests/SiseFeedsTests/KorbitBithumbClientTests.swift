import Foundation
import Logging
import SiseCore
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseFeeds

/// The real Korbit and Bithumb clients against the simulator's venues: boards, candles, the
/// exchanges' own error shapes and limits, and their WebSockets.
@Suite(.serialized) struct KorbitBithumbClientTests {
    func withClients(_ body: (KorbitClient, V1QuotationClient, RunningSimulator) async throws -> Void) async throws {
        try await withSimulator { simulator in
            let http = LiveHTTPTransport()
            let korbit = KorbitClient(configuration: .init(baseURL: simulator.baseURL), transport: http)
            let bithumb = V1QuotationClient(
                configuration: .init(baseURL: simulator.baseURL.appendingPathComponent("bithumb"), dialect: .bithumb),
                transport: http
            )
            do {
                try await body(korbit, bithumb, simulator)
            } catch {
                await http.shutdown()
                throw error
            }
            await http.shutdown()
        }
    }

    @Test func korbitListsTradablePairsAndTickersWithFractionalChanges() async throws {
        try await withClients { korbit, _, _ in
            let markets = try await korbit.markets()
            #expect(markets.count > 100 && markets.allSatisfy { $0.id.quote == "KRW" })
            #expect(markets.contains { $0.id == MarketID("KRW-BTC") })
            let tickers = try await korbit.tickers(quotes: [.krw])
            #expect(tickers.count >= markets.count, "stopped pairs still have tickers")
            let btc = try #require(tickers.first { $0.market == MarketID("KRW-BTC") })
            #expect(btc.price > 1_000_000 && abs(btc.signedChangeRate) < 0.5, "a fraction, not percent")
            #expect(try await korbit.tickers(quotes: [.btc]).isEmpty, "Korbit has only KRW pairs")
            // An unknown symbol is simply absent, not an error.
            let some = try await korbit.tickers(markets: [MarketID("KRW-BTC")!, MarketID("KRW-NOPE")!])
            #expect(some.map(\.market) == [MarketID("KRW-BTC")!])
            let candles = try await korbit.candles(market: MarketID("KRW-BTC")!, unit: .minutes(60), count: 24, to: nil)
            #expect(candles.count == 24)
            #expect(zip(candles, candles.dropFirst()).allSatisfy { $0.start > $1.start }, "newest first")
        }
    }

    @Test func korbit429IsWaitedOutPerRetryAfter() async throws {
        try await withClients { korbit, _, simulator in
            try await SimAdmin.setFaults(simulator, #"{"failNext":1,"failNextStatus":429,"retryAfterSeconds":1}"#, exchange: "korbit")
            let started = ContinuousClock.now
            #expect(try await korbit.tickers(markets: [MarketID("KRW-BTC")!]).count == 1)
            #expect(started.duration(to: .now) >= .milliseconds(900), "waited for Retry-After")
        }
    }

    @Test func bithumbChunksTickersAndCorrectsItsClock() async throws {
        try await withClients { _, bithumb, simulator in
            let markets = try await bithumb.markets()
            #expect(markets.count > V1QuotationClient.bithumbMarketsPerCall, "more markets than one call may carry")
            let tickers = try await bithumb.tickers(quotes: [.krw, .btc])
            #expect(tickers.count == markets.filter { ["KRW", "BTC"].contains($0.id.quote) }.count)
            let now = Int64(Date().timeIntervalSince1970 * 1_000)
            let btc = try #require(tickers.first { $0.market == MarketID("KRW-BTC") })
            #expect(abs(btc.timestamp - now) < 60_000, "KST wall time turned back into epoch ms: \(btc.timestamp - now)")
            let calls = try await SimAdmin.stats(simulator, exchange: "bithumb")["upbit"]?["ticker"] ?? 0
            #expect(calls >= 2, "chunked into calls of at most 200")
            // Bithumb's warning list becomes cautions (and a WARNING step the serious flag).
            let flagged = markets.filter { $0.cautions.contains("PRICE_SUDDEN_FLUCTUATION") }
            #expect(!flagged.isEmpty && flagged.allSatisfy(\.warning))
            #expect(markets.contains { $0.cautions.contains("PRICE_DIFFERENCE_HIGH") })
        }
    }

    @Test func bithumbErrorsInHTTP200AreTypedErrors() async throws {
        try await withClients { _, bithumb, _ in
            await #expect(throws: FeedError.notFound(name: "404", message: "Code not found")) {
                _ = try await bithumb.tickers(markets: [MarketID("KRW-NOPE")!])
            }
        }
    }

    final class Collected: Sendable {
        let tickers = Mutex<[Ticker]>([])
        let connected = Mutex(false)
    }

    @Test(arguments: ExchangeRegistry.all.map(\.exchange))
    func everyExchangesStreamDeliversTickers(_ exchange: Exchange) async throws {
        try await withSimulator { simulator in
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let spec = ExchangeRegistry.spec(exchange)
            let stream = spec.stream(spec.simulated(at: simulator.baseURL), silence: .seconds(10), logger: logger)
            let collected = Collected()
            let task = Task {
                await stream.run(codes: { [MarketID("KRW-BTC")!, MarketID("KRW-ETH")!] }) { event in
                    if case .ticker(let ticker) = event { collected.tickers.withLock { $0.append(ticker) } }
                    if case .connected = event { collected.connected.withLock { $0 = true } }
                }
            }
            try await expectEventually(timeout: .seconds(10)) { collected.tickers.withLock { $0.count } >= 20 }
            task.cancel()
            await task.value
            let markets = Set(collected.tickers.withLock { $0.map(\.market) })
            #expect(markets == [MarketID("KRW-BTC")!, MarketID("KRW-ETH")!])
            #expect(collected.connected.withLock { $0 })
        }
    }

    /// The simulator plays every exchange of the registry where its spec looks for it: the REST
    /// client the spec builds, pointed at `simulated(at:)`, reads a market list there.
    @Test(arguments: ExchangeRegistry.all.map(\.exchange))
    func everyExchangesRESTAnswersAtItsMount(_ exchange: Exchange) async throws {
        try await withSimulator { simulator in
            let spec = ExchangeRegistry.spec(exchange)
            let transport = LiveHTTPTransport()
            let markets = try await spec.api(spec.simulated(at: simulator.baseURL), transport: transport).markets()
            await transport.shutdown()
            #expect(markets.contains { $0.id == MarketID("KRW-BTC") }, "\(exchange): \(markets.count) markets")
        }
    }
}
