import Foundation
import Logging
import SiseEngine
import SiseFeeds

extension LiveUpstreams {
    /// The premium's feed over this process's clients (the simulator's Binance and Dunamu in
    /// `--demo`).
    func premiumFeed(_ settings: PremiumSettings, coinInfo: CoinInfoService?, logger: Logger) -> PremiumFeed {
        var settings = settings
        if let simulator { settings.pointAt(simulator: simulator.baseURL) }
        return PremiumFeed(configuration: .init(fx: settings.fx), binance: BinanceClient(configuration: settings.binance, transport: transport),
                           stream: BinanceMiniTickerStream(webSocketBase: settings.binance.webSocketURL, silence: silence, logger: logger),
                           upbit: boards.defaultBoard, upbitAPI: apis[settings.fx.exchange ?? .default] ?? upbit,
                           dunamu: DunamuForexClient(baseURL: settings.dunamuURL, transport: transport), coinInfo: coinInfo, logger: logger)
    }
}
