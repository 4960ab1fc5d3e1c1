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
            upbitAPI: apis[settings.fx.exchange ?? .default] ?? root.api(settings.fx.exchange ?? .default),
            dunamu: root.dunamu(settings),
            coinInfo: coinInfo,
            logger: logger,
            now: root.clock.milliseconds,
            pace: root.ticks
        )
    }
}
