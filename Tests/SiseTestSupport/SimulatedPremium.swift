import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import SiseSimulator

/// The premium feed over a running simulator, wired as `serve` and `tui` wire it: Upbit's board
/// (not started: the caller runs it when it needs it live), Binance's REST and stream, and the FX
/// sources the test names (Dunamu by default, Korea Eximbank with a key).
public enum SimulatedPremium {
    public static func feed(
        _ simulator: RunningSimulator,
        fx: FXSource,
        transport: LiveHTTPTransport,
        dunamu: URL? = nil,
        eximbankKey: String? = nil,
        withDunamu: Bool = true
    ) -> (feed: PremiumFeed, board: LiveBoard, upbit: any ExchangeAPI) {
        let base = simulator.baseURL
        let upbit = V1QuotationClient(configuration: .init(baseURL: base), transport: transport)
        let board = LiveBoard(
            configuration: .init(exchange: .upbit),
            api: upbit,
            stream: TickerStream(configuration: .init(url: TickerStreamConfiguration.webSocketURL(forREST: base))),
            logger: Logger(label: "test")
        )
        let feed = PremiumFeed(
            configuration: .init(fx: fx),
            binance: BinanceClient(configuration: .init(baseURL: base.appendingPathComponent("binance")), transport: transport),
            stream: BinanceMiniTickerStream(webSocketBase: BinanceClient.Configuration.derivedWebSocketURL(base.appendingPathComponent("binance"))),
            upbit: board,
            fx: .clients(
                usdtExchange: upbit,
                dunamu: withDunamu ? DunamuForexClient(baseURL: dunamu ?? base.appendingPathComponent("dunamu"), transport: transport) : nil,
                eximbank: eximbankKey.map { KoreaEximClient(baseURL: base.appendingPathComponent("koreaexim"), key: $0, transport: transport) },
                coinGecko: nil
            ),
            coinInfo: nil,
            logger: Logger(label: "test")
        )
        return (feed, board, upbit)
    }
}
