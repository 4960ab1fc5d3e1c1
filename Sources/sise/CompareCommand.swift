import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise compare [SYMBOL...]`: every coin listed in KRW on at least two of the exchanges and
/// — its price on each, the dearest and cheapest venue, the gap.
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare KRW prices across the exchanges (the gap between the dearest and the cheapest)."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var premiumOptions: PremiumOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Argument(help: "Only these symbols (BTC ETH); default every coin on two exchanges or more.")
    var symbols: [String] = []

    @Option(help: "Sort: gap (widest first) or symbol (default gap).")
    var sort: String = "gap"

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func validate() throws {
        guard CompareBoard.Sort(rawValue: sort.lowercased()) != nil else {
            throw ValidationError("--sort must be gap or symbol, not '\(sort.prefix(20))'.")
        }
        for symbol in symbols where !(1...20).contains(symbol.count) || !symbol.allSatisfy({ $0.isLetter || $0.isNumber }) {
            throw ValidationError(ListingProblem.notAMarket(symbol).message(global.language))
        }
    }

    func run() async throws {
        let settings = global.settings
        let language = global.language
        let premiumSettings = try PremiumSettings(premiumOptions, settings.sources)
        // Each exchange's KRW board over REST, all at once (one that cannot answer is left out),
        // and the premium's inputs beside them, as `/api/compare` has them live.
        let (venues, premium) = try await Root.oneShot(settings) { root in
            let coinGecko = try root.coinGecko(gecko)
            let inputs = Task { await OneShotPremium.inputs(premiumSettings, root: root, coinGecko: coinGecko) }
            let venues = try await withThrowingTaskGroup(of: (Exchange, [MarketRow]?).self) { group in
                for exchange in Exchange.allCases {
                    let api = root.api(exchange)
                    group.addTask { (exchange, try? await BoardLoader(api: api, exchange: exchange).load(quote: .krw)) }
                }
                var venues: [Exchange: CompareBoard.Venue] = [:]
                for try await (exchange, rows) in group {
                    if let rows { venues[exchange] = .init(rows: rows, stale: false) }
                }
                return venues
            }
            return (venues, await OneShotPremium.awaiting(inputs, upTo: OneShotPremium.grace, language: language))
        }
        guard venues.count >= 2 else {
            throw CLIFailure(code: .upstream, message: "sise: " + UIText.compareEmpty(language))
        }
        let wanted = symbols.isEmpty ? nil : Set(symbols.map { $0.uppercased() })
        // A symbol no exchange lists is the user's mistake, as `price NOPE` is.
        let listed = Set(venues.values.flatMap { $0.rows.map(\.market.symbol) })
        if let unknown = wanted?.subtracting(listed), !unknown.isEmpty {
            throw CLIFailure.listing(.unlisted(unknown.sorted()), language)
        }
        let rows = CompareBoard.rows(venues, symbols: wanted, sort: CompareBoard.Sort(rawValue: sort.lowercased()) ?? .gap)
        let formatter = MarketFormatter(language: language)
        if json { return printJSON(rows.map { CompareRowJSON($0, formatter: formatter, premium: premium.board) }) }
        let lines = CompareTable(language: language).render(rows)
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

/// The CLI's compare table: symbol, name, one column per exchange, high, low, gap.
struct CompareTable {
    let language: Language

    func render(_ rows: [CompareRow]) -> [String] {
        let f = MarketFormatter(language: language)
        let header =
            [UIText.compareSymbol(language), UIText.name(language)] + Exchange.allCases.map(\.displayName)
            + [UIText.highVenue(language), UIText.lowVenue(language), UIText.gap(language)]
        let cells: [[String]] = rows.map { row in
            [row.symbol, row.name(in: language)]
                + Exchange.allCases.map { exchange in
                    row.prices[exchange].map {
                        f.price($0, quote: "KRW") + (row.stale.contains(exchange) ? " (" + UIText.staleVenue(language) + ")" : "")
                    } ?? "-"
                }
                + (row.tied
                    ? [UIText.samePrice(language), UIText.samePrice(language)] : [row.high?.displayName ?? "-", row.low?.displayName ?? "-"])
                + [row.gap.map(f.percent) ?? "-"]
        }
        var widths = header.map(DisplayWidth.of)
        for line in cells { for (i, cell) in line.enumerated() { widths[i] = min(max(widths[i], DisplayWidth.of(cell)), 24) } }
        func format(_ line: [String]) -> String {
            line.enumerated().map { i, cell in
                TextColumns.fit(cell, width: widths[i], alignment: i < 2 || i >= line.count - 3 && i < line.count - 1 ? .left : .right)
            }.joined(separator: "  ")
        }
        if rows.isEmpty { return [format(header), UIText.compareEmpty(language)] }
        return [format(header)] + cells.map(format)
    }
}
