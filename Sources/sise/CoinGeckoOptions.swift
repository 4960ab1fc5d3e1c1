import ArgumentParser
import Foundation
import SiseFeeds

/// CoinGecko settings shared by the coin-info commands (resolved in `Settings.coinGecko`).
struct CoinGeckoOptions: ParsableArguments {
    @Option(name: .customLong("coingecko-url"), help: "CoinGecko base URL (env SISE_COINGECKO_URL; default https://api.coingecko.com/api/v3).")
    var urlOption: String?

    @Option(name: .customLong("coingecko-key"), help: "CoinGecko API key (env SISE_COINGECKO_KEY).")
    var keyOption: String?

    @Option(name: .customLong("coingecko-plan"), help: "The key's plan: demo or pro (env SISE_COINGECKO_PLAN; default demo).")
    var planOption: String?
}
