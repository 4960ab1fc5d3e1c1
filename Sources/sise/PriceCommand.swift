import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise price BTC KRW-ETH`: the rows of the named markets.
struct PriceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "price",
        abstract: "Print the current price of the given symbols (BTC = KRW-BTC) or markets (BTC-ETH)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var venue: ExchangeOption
    @OptionGroup var premiumOptions: PremiumOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Argument(help: "Symbols (BTC) or market codes (KRW-BTC).")
    var symbols: [String]

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func validate() throws {
        guard !symbols.isEmpty else { throw ValidationError("Name at least one symbol, e.g. sise price BTC.") }
    }

    func run() async throws {
        let language = global.language
        let exchange = venue.exchange
        let settings = global.settings
        // KRW markets carry the kimchi premium, looked up as every face looks it up.
        let krw = symbols.contains { MarketID.resolve($0, quote: .krw)?.quote == QuoteCurrency.krw.rawValue }
        let (rows, premium) = try await OneShotPremium.rows(
            exchange,
            withPremium: krw,
            premium: try PremiumSettings(premiumOptions, settings.sources),
            settings: settings,
            coinGecko: gecko
        ) { client in
            let listing = try await client.markets()
            let ids = try listed(language) { () throws(ListingProblem) in try MarketListing(exchange: exchange, markets: listing).markets(symbols) }
            return try await BoardLoader(api: client, exchange: exchange).load(markets: ids, listing: listing)
        }
        try RowOutput(language: language, color: global.useColor).print(rows, json: json, premium: premium?.board ?? .none)
    }
}
