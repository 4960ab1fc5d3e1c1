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
        let rows = try await global.withExchange(exchange) { client in
            let listing = try await client.markets()
            let ids = try resolve(symbols, in: listing, language: language)
            return try await BoardLoader(api: client, exchange: exchange).load(markets: ids, listing: listing)
        }
        try RowOutput(language: language, color: global.useColor).print(rows, json: json)
    }

    /// `BTC` → `KRW-BTC`; `krw-btc` → `KRW-BTC`; anything not listed is a usage error.
    func resolve(_ symbols: [String], in listing: [Market], language: Language) throws -> [MarketID] {
        let listed = Set(listing.map(\.id))
        var ids: [MarketID] = []
        var unknown: [String] = []
        for symbol in symbols {
            let text = symbol.trimmingCharacters(in: .whitespaces)
            let id = MarketID.resolve(text, quote: .krw)
            if let id, listed.contains(id) {
                if !ids.contains(id) { ids.append(id) }
            } else {
                unknown.append(symbol)
            }
        }
        guard unknown.isEmpty else {
            let list = unknown.joined(separator: ", ")
            throw CLIFailure.usage("sise: " + UIText.unknownSymbol(language, ["list": list]))
        }
        return ids
    }
}
