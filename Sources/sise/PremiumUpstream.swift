import Foundation
import Logging
import SiseEngine
import SiseFeeds

extension LiveUpstreams {
    /// The premium's feed over the root's clients (the simulator's Binance and Dunamu in `--demo`).
    func premiumFeed(_ settings: PremiumSettings, coinInfo: CoinInfoService?, logger: Logger) -> PremiumFeed {
        PremiumFeed(
            configuration: .init(fx: settings.fx),
            binance: root.binance(settings),
            stream: root.binanceStream(settings, silence: silence, logger: logger),
            upbit: boards.defaultBoard,
            fx: root.fxReader(
                settings,
                coinGecko: coinInfo.map { info in
                    { @Sendable in
                        let cached = try await info.krwPerUSD()
                        return (cached.value, cached.stale ? cached.fetchedAt : nil)
                    }
                }
            ),
            coinInfo: coinInfo,
            logger: logger,
            now: root.clock.milliseconds,
            pace: root.ticks
        )
    }

    /// The global venues' prices for the premium matrix: OKX and Bybit polled while someone looks,
    /// Binance from `feed`'s stream.
    func globalPrices(_ settings: PremiumSettings, feed: PremiumFeed, logger: Logger) -> GlobalPrices {
        GlobalPrices(apis: root.globalAPIs(settings), binance: feed, clock: root.clock, pace: root.ticks, logger: logger)
    }
}
