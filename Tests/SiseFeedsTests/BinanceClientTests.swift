import Foundation
import SiseCore
import SiseSimulator
import SiseTestSupport
import Synchronization
import Testing

@testable import SiseFeeds

/// Binance's REST client and mini-ticker stream against the simulator's Binance: prices by
/// symbol, 429 and 418 with their waits, the stream's frames, a drop and a refused upgrade.
@Suite struct BinanceClientTests {
    func client(_ simulator: RunningSimulator, _ transport: LiveHTTPTransport) -> BinanceClient {
        BinanceClient(configuration: .init(baseURL: simulator.baseURL.appendingPathComponent("binance")), transport: transport)
    }

    @Test func pricesRefusalsAndWeight() async throws {
        try await withSimulator { simulator in
            let transport = LiveHTTPTransport()
            do {
                try await refusalsAndWeight(simulator, transport)
            } catch {
                await transport.shutdown()
                throw error
            }
            await transport.shutdown()
        }
    }

    private func refusalsAndWeight(_ simulator: RunningSimulator, _ transport: LiveHTTPTransport) async throws {
        let binance = client(simulator, transport)
        let (prices, used) = try await binance.usdtPricesAndWeight()
        #expect((prices["BTC"] ?? 0) > 10_000 && prices["USDT"] == nil && prices.count > 150)
        #expect(used == 4, "the weight header is read")
        try await SimAdmin.setBinance(simulator, #"{"failNext":1,"failNextStatus":429,"retryAfterSeconds":7}"#)
        await #expect(throws: FeedError.rateLimited(retryAfter: .seconds(7))) { try await binance.usdtPrices() }
        try await SimAdmin.setBinance(simulator, #"{"failNext":1,"failNextStatus":418,"retryAfterSeconds":120}"#)
        await #expect(throws: FeedError.blocked(retryAfter: .seconds(120))) { try await binance.usdtPrices() }
        #expect(try await SimAdmin.binance(simulator)["usedWeight"] == 4, "only the answered call counts its weight")
        // 4 used of 8: one more call fits, the next goes past the minute's weight (429).
        try await SimAdmin.setBinance(simulator, #"{"weightPerMinute":8}"#)
        _ = try await binance.usdtPrices()
        await #expect(throws: FeedError.self, "past the minute's weight: 429") { try await binance.usdtPrices() }
    }

    @Test func theStreamDeliversAndReconnectsAfterADropAndASilence() async throws {
        try await withSimulator { simulator in
            let base = URL(string: "ws://127.0.0.1:\(simulator.port)/binance")!
            let stream = BinanceMiniTickerStream(webSocketBase: base, silence: .seconds(3))
            let seen = Mutex((frames: 0, connects: 0, disconnects: 0, btc: 0.0))
            let task = Task {
                await stream.run { event in
                    seen.withLock { s in
                        switch event {
                        case .connected: s.connects += 1
                        case .prices(let prices, _):
                            s.frames += 1
                            s.btc = prices["BTC"] ?? s.btc
                        case .disconnected: s.disconnects += 1
                        }
                    }
                }
            }
            try await expectEventually(timeout: .seconds(5)) { seen.withLock { $0.frames >= 2 && $0.btc > 10_000 } }
            try await SimAdmin.setBinance(simulator, #"{"wsDropNow":true}"#)
            try await expectEventually(timeout: .seconds(10), "reconnects after a drop") { seen.withLock { $0.connects >= 2 } }
            // Stalled: the watchdog (3 s here) closes the silent socket and reconnects.
            try await SimAdmin.setBinance(simulator, #"{"wsStall":true}"#)
            try await expectEventually(timeout: .seconds(10), "a silent socket is dropped") { seen.withLock { $0.disconnects >= 2 } }
            try await SimAdmin.setBinance(simulator, #"{"wsStall":false}"#)
            task.cancel()
            await task.value
            // The server sees the close when its side of the socket ends: wait for it, not a moment.
            try await expectEventually(timeout: .seconds(5), "cancelled: the socket is closed") {
                try await SimAdmin.binance(simulator)["wsOpen"] == 0
            }
        }
    }

    @Test func framesAreDecodedDefensively() {
        let array = Data(
            #"[{"e":"24hrMiniTicker","E":1,"s":"BTCUSDT","c":"67000.5"},{"e":"24hrMiniTicker","E":2,"s":"ETHBTC","c":"0.05"},{"s":"XUSDT","c":"NaN"}]"#
                .utf8
        )
        let (prices, at) = BinanceMiniTickerStream.decode(array) ?? ([:], 0)
        #expect(prices == ["BTC": 67_000.5] && at == 1, "only USDT pairs count, their time too")
        let combined = Data(#"{"stream":"!miniTicker@arr","data":[{"s":"SOLUSDT","c":"90","E":5}]}"#.utf8)
        #expect(BinanceMiniTickerStream.decode(combined)?.0 == ["SOL": 90])
        for garbage in ["not-json{{", #"{"code":-1121,"msg":"Invalid symbol."}"#, "[]", #"[{"s":"BTCUSDT","c":"-1"}]"#] {
            #expect(BinanceMiniTickerStream.decode(Data(garbage.utf8)) == nil, "\(garbage)")
        }
    }
}
