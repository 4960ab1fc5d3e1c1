import Foundation

/// Synthetic Upbit ticker frames, exactly as the simulator's WebSocket sends them: for
/// benchmarks and decoder tests that need many realistic, varied frames.
public enum SimulatorFrames {
    public enum Format: Sendable { case `default`, simple }

    /// `count` REALTIME ticker frames over the KRW board, 50 ms apart in simulated time.
    public static func tickers(
        count: Int,
        seed: UInt64 = 42,
        format: Format = .default,
        startingAt epochSeconds: Double = 1_790_000_000
    ) -> [String] {
        frames(count: count, seed: seed, startingAt: epochSeconds) { market, state in
            SimStreamTickerWriter.write(market, state, format: format == .simple ? .simple : .default, snapshot: false)
        }
    }

    /// `count` Korbit ticker frames (`{"symbol":…,"type":"ticker","data":{…}}`), as the simulator's
    /// Korbit stream sends them.
    public static func korbitTickers(count: Int, seed: UInt64 = 42, startingAt epochSeconds: Double = 1_790_000_000) -> [String] {
        frames(count: count, seed: seed, startingAt: epochSeconds) { market, state in
            KorbitWriter.tickerFrame(market, state, snapshot: false, stopped: false)
        }
    }

    /// Random KRW markets' ticks, 50 ms apart in simulated time, each written by `write`.
    private static func frames(
        count: Int,
        seed: UInt64,
        startingAt epochSeconds: Double,
        write: (SimMarket, SimTickerState) -> String
    ) -> [String] {
        let exchange = SimExchange(configuration: SimulatorConfiguration(seed: seed, now: { epochSeconds }), venue: .default)
        let markets = exchange.universe.markets(quote: "KRW")
        var random = SimRandom(seed: seed)
        return (0..<count).map { i in
            let market = markets[Int(random.next() % UInt64(markets.count))]
            return write(market, exchange.streamTicker(market, atMilliseconds: Int64((epochSeconds + Double(i) * 0.05) * 1_000)))
        }
    }
}
