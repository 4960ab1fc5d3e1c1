import ArgumentParser
import Foundation
import SiseFeeds

/// CoinGecko settings shared by the coin-info commands.
struct CoinGeckoOptions: ParsableArguments {
    @Option(name: .customLong("coingecko-url"), help: "CoinGecko base URL (env SISE_COINGECKO_URL; default https://api.coingecko.com/api/v3).")
    var urlOption: String?

    @Option(name: .customLong("coingecko-key"), help: "CoinGecko API key (env SISE_COINGECKO_KEY).")
    var keyOption: String?

    @Option(name: .customLong("coingecko-plan"), help: "The key's plan: demo or pro (default demo).")
    var planOption: String = "demo"

    func validate() throws {
        guard CoinGeckoPlan(rawValue: planOption.lowercased()) != nil else {
            throw ValidationError("--coingecko-plan must be demo or pro, not '\(planOption)'.")
        }
        if let text = urlOption ?? ProcessInfo.processInfo.environment["SISE_COINGECKO_URL"] {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--coingecko-url must be an http(s) URL, not '\(text)'.")
            }
        }
    }

    var configuration: CoinGeckoClient.Configuration {
        let env = ProcessInfo.processInfo.environment
        let url = (urlOption ?? env["SISE_COINGECKO_URL"]).flatMap(URL.init(string:)) ?? CoinGeckoClient.Configuration.defaultURL
        return .init(baseURL: url, key: keyOption ?? env["SISE_COINGECKO_KEY"], plan: CoinGeckoPlan(rawValue: planOption.lowercased()) ?? .demo)
    }
}
