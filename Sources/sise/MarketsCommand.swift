import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise markets`: a one-shot board of a quote market.
struct MarketsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markets",
        abstract: "Print the board of a quote market (default KRW), sorted by trade value."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var venue: ExchangeOption
    @OptionGroup var premiumOptions: PremiumOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Option(help: "Quote market: KRW, BTC or USDT.")
    var quote: String = "KRW"

    @Option(help: "Sort column: name, price, change, value or premium (default value).")
    var sort: String?

    @Option(help: "Sort order: asc, desc or none (default desc).")
    var order: String?

    @Option(help: "Filter by Korean name, English name or symbol; 초성 (ㅂㅌ) works.")
    var search: String?

    @Option(help: "Print at most N rows.")
    var limit: Int?

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func validate() throws {
        guard let parsed = QuoteCurrency(code: quote) else { throw ValidationError("--quote must be KRW, BTC or USDT, not '\(quote)'.") }
        try venue.check(quote: parsed, global.language)
        if let sort, SortKey(rawValue: sort.lowercased()) == nil {
            throw ValidationError("--sort must be name, price, change, value or premium, not '\(sort)'.")
        }
        if sort?.lowercased() == SortKey.premium.rawValue, parsed != .krw { throw ValidationError(UIText.premiumKRWOnly(global.language)) }
        if let order, SortDirection(spelling: order) == nil {
            throw ValidationError("--order must be \(SortDirection.spellings), not '\(order)'.")
        }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative.") }
    }

    var sortState: SortState {
        SortState.requested(key: sort.flatMap { SortKey(rawValue: $0.lowercased()) }, direction: order.flatMap(SortDirection.init(spelling:)))
    }

    func run() async throws {
        let language = global.language
        let exchange = venue.exchange
        let settings = global.settings
        let premiumSettings = try PremiumSettings(premiumOptions, settings.sources)
        let (rows, premium) = try await OneShotPremium.board(
            exchange,
            quote: QuoteCurrency(code: quote) ?? .krw,
            premium: premiumSettings,
            settings: settings,
            coinGecko: gecko
        )
        for problem in premium?.problems ?? [] {
            FileHandle.standardError.write(Data((UIText.premiumUnavailable(language, ["reason": problem]) + "\n").utf8))
        }
        let inputs = premium?.board ?? .none
        var shown = MarketSorter.sorted(MarketSearch(search ?? "").filter(rows), by: sortState, language: language, premium: inputs)
        if let limit { shown = Array(shown.prefix(limit)) }
        try RowOutput(language: language, color: global.useColor).print(shown, json: json, premium: inputs)
    }
}
