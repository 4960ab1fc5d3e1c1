import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds

/// The kimchi premium's sources (serve, tui, markets, premium): Binance's URLs, the FX source
/// and Dunamu's URL — resolved like every setting (flag > environment > config file > default).
struct PremiumOptions: ParsableArguments {
    @Option(name: .customLong("binance-url"), help: "Binance REST base (env SISE_BINANCE_URL; default https://api.binance.com).")
    var binanceURLOption: String?

    @Option(
        name: .customLong("binance-ws-url"),
        help: "Binance WebSocket base (env SISE_BINANCE_WS_URL; default wss://stream.binance.com:9443, or derived from --binance-url)."
    )
    var binanceWebSocketURLOption: String?

    @Option(name: .customLong("fx"), help: "KRW per USD for the premium: upbit-usdt (default), dunamu or coingecko (env SISE_FX).")
    var fxOption: String?

    @Option(
        name: .customLong("dunamu-url"),
        help: "Dunamu forex base for --fx dunamu (env SISE_DUNAMU_URL; default https://quotation-api-cdn.dunamu.com)."
    )
    var dunamuURLOption: String?
}

/// The premium's resolved settings.
struct PremiumSettings: Sendable {
    var binance: BinanceClient.Configuration
    var fx: FXSource
    var dunamuURL: URL

    init(_ options: PremiumOptions, _ sources: SettingSources) throws {
        let rest = try sources.httpURL(.binanceURL, flag: options.binanceURLOption, default: BinanceClient.Configuration.defaultURL)
        let webSocket = try sources.webSocketURL(.binanceWebSocketURL, flag: options.binanceWebSocketURLOption)
        binance = BinanceClient.Configuration(baseURL: rest, webSocketURL: webSocket)
        let fxText = sources.text(.fx, flag: options.fxOption) ?? FXSource.upbitUSDT.rawValue
        guard let fx = FXSource(rawValue: fxText.lowercased()) else {
            throw ConfigFile.Problem(
                message: "\(sources.origin(.fx, flag: options.fxOption)) must be upbit-usdt, dunamu or coingecko, not '\(fxText.prefix(20))'"
            )
        }
        self.fx = fx
        dunamuURL = try sources.httpURL(.dunamuURL, flag: options.dunamuURLOption, default: DunamuForexClient.defaultURL)
    }

    /// `--demo`: everything from the built-in simulator.
    mutating func pointAt(simulator: URL) {
        binance = BinanceClient.Configuration(baseURL: simulator.appendingPathComponent("binance"))
        dunamuURL = simulator.appendingPathComponent("dunamu")
    }
}
