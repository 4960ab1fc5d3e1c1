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

    @Option(
        name: .customLong("fx"),
        help: "KRW per USD for the premium: upbit-usdt (default), dunamu, eximbank (needs --exim-key) or coingecko (env SISE_FX)."
    )
    var fxOption: String?

    @Option(
        name: .customLong("dunamu-url"),
        help: "Dunamu forex base for --fx dunamu (env SISE_DUNAMU_URL; default https://quotation-api-cdn.dunamu.com)."
    )
    var dunamuURLOption: String?

    @Option(
        name: .customLong("exim-key"),
        help: "Korea Eximbank's API key: its daily reference rate joins the official rates (env SISE_EXIM_KEY; never logged)."
    )
    var eximKeyOption: String?

    @Option(name: .customLong("exim-url"), help: "Korea Eximbank's API base (env SISE_EXIM_URL; default https://oapi.koreaexim.go.kr).")
    var eximURLOption: String?

    @Option(name: .customLong("okx-url"), help: "OKX's REST base, for the premium matrix (env SISE_OKX_URL; default https://www.okx.com).")
    var okxURLOption: String?

    @Option(name: .customLong("bybit-url"), help: "Bybit's REST base, for the premium matrix (env SISE_BYBIT_URL; default https://api.bybit.com).")
    var bybitURLOption: String?
}

/// The premium's resolved settings.
struct PremiumSettings: Sendable {
    var binance: BinanceClient.Configuration
    var fx: FXSource
    var dunamuURL: URL
    var eximURL: URL
    /// Korea Eximbank's key (nil: that source is not read).
    var eximKey: String?
    /// Each global venue's REST base but Binance's (`binance`).
    var venueURLs: [GlobalVenue: URL] = [:]

    init(_ options: PremiumOptions, _ sources: SettingSources) throws {
        let rest = try sources.httpURL(.binanceURL, flag: options.binanceURLOption, default: BinanceClient.Configuration.defaultURL)
        let webSocket = try sources.webSocketURL(.binanceWebSocketURL, flag: options.binanceWebSocketURLOption)
        binance = BinanceClient.Configuration(baseURL: rest, webSocketURL: webSocket)
        let fxText = sources.text(.fx, flag: options.fxOption) ?? FXSource.upbitUSDT.rawValue
        guard let fx = FXSource(rawValue: fxText.lowercased()) else {
            throw ConfigFile.Problem(
                message:
                    "\(sources.origin(.fx, flag: options.fxOption)) must be upbit-usdt, dunamu, eximbank or coingecko, not '\(fxText.prefix(20))'"
            )
        }
        self.fx = fx
        dunamuURL = try sources.httpURL(.dunamuURL, flag: options.dunamuURLOption, default: DunamuForexClient.defaultURL)
        eximURL = try sources.httpURL(.eximURL, flag: options.eximURLOption, default: KoreaEximClient.defaultURL)
        eximKey = sources.text(.eximKey, flag: options.eximKeyOption).flatMap { $0.isEmpty ? nil : $0 }
        if let key = eximKey, key.count > 200 || !key.allSatisfy({ $0.isASCII && !$0.isWhitespace }) {
            throw ConfigFile.Problem(message: "\(sources.origin(.eximKey, flag: options.eximKeyOption)) is not a Korea Eximbank key")
        }
        for (venue, flag) in [(GlobalVenue.okx, options.okxURLOption), (.bybit, options.bybitURLOption)] {
            let spec = GlobalVenueRegistry.spec(venue)
            venueURLs[venue] = try sources.httpURL(SettingKey(rawValue: spec.restSetting), flag: flag, default: spec.restURL)
        }
        if fx == .eximbank, eximKey == nil {
            throw ConfigFile.Problem(message: "\(sources.origin(.fx, flag: options.fxOption)) eximbank needs --exim-key (or SISE_EXIM_KEY)")
        }
    }

    /// `--demo`: everything from the built-in simulator.
    mutating func pointAt(simulator: URL) {
        binance = BinanceClient.Configuration(baseURL: simulator.appendingPathComponent("binance"))
        dunamuURL = simulator.appendingPathComponent("dunamu")
        eximURL = simulator.appendingPathComponent("koreaexim")
        eximKey = eximKey ?? "demo"
        for spec in GlobalVenueRegistry.all where spec.venue != .binance { venueURLs[spec.venue] = spec.simulated(at: simulator) }
    }

    /// Where each global venue is reached.
    func url(_ venue: GlobalVenue) -> URL {
        venue == .binance ? binance.baseURL : venueURLs[venue] ?? GlobalVenueRegistry.spec(venue).restURL
    }
}
