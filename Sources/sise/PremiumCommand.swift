import ArgumentParser
import Foundation
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise premium`: the kimchi premium of an exchange's KRW coins, with the global price, the
/// rate and their sources.
struct PremiumCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "premium",
        abstract: "The kimchi premium: KRW price against Binance's USDT price × KRW per USD, per coin."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var venue: ExchangeOption
    @OptionGroup var premiumOptions: PremiumOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Argument(help: "Symbols (BTC ETH …); default: every KRW coin by trade value. USDT alone: the USDT premium (tether premium) on every exchange.")
    var symbols: [String] = []

    @Flag(help: "Print a JSON array of {symbol, exchange, krwPrice, globalPrice, globalSource, fx, fxSource, premium}.")
    var json = false

    @Flag(help: "The premium matrix: every KRW coin on every Korean exchange against Binance, OKX and Bybit.")
    var matrix = false

    @Option(name: .customLong("venue"), help: "With --matrix: only these venues (binance, okx, bybit; repeat or comma-separate).")
    var venueNames: [String] = []

    @Option(help: "With --matrix: premium (by the first exchange × venue shown) or value (Korean trade value, the default).")
    var sort: String = "value"

    @Option(help: "With --matrix: how many coins (1–500).")
    var limit: Int = 50

    @Option(help: "The premium's history over this range (6h, 48h, 7d, 90d, 1y, 2y) from the store `sise serve` records into.")
    var history: String?

    @Option(help: "The executable premium of one coin for this many won (10000-10000000000): walked through both books, after the withdrawal fee.")
    var amount: String?

    @OptionGroup var storage: StoreOptions

    /// The venues `--venue` names (all when none).
    var venues: [GlobalVenue] {
        let named = venueNames.flatMap { $0.split(separator: ",") }.compactMap { GlobalVenue(name: String($0)) }
        return named.isEmpty ? GlobalVenue.allCases : named
    }

    func validate() throws {
        for name in venueNames.flatMap({ $0.split(separator: ",") }) where GlobalVenue(name: String(name)) == nil {
            throw ValidationError("--venue must be \(GlobalVenue.names), not '\(name.prefix(20))'.")
        }
        guard ["premium", "value"].contains(sort) else { throw ValidationError("--sort must be premium or value, not '\(sort.prefix(20))'.") }
        guard (1...PremiumMatrixQuery.maxLimit).contains(limit) else { throw ValidationError("--limit must be 1 to \(PremiumMatrixQuery.maxLimit).") }
        if !matrix, history == nil, amount == nil, !venueNames.isEmpty { throw ValidationError("--venue goes with --matrix, --history or --amount.") }
        if let amount {
            guard TypedNumber.whole(amount, in: ExecutablePremium.amounts) != nil else {
                throw ValidationError("--amount must be a whole number of won from 10000 to 10000000000.")
            }
            guard symbols.count == 1, !matrix, history == nil, symbols.first?.uppercased() != "USDT" else {
                throw ValidationError("--amount takes one coin (not USDT), without --matrix or --history.")
            }
            guard venueNames.flatMap({ $0.split(separator: ",") }).count <= 1 else { throw ValidationError("--amount takes one --venue.") }
        }
        if let history {
            guard HistoryRange.parse(history) != nil else {
                throw ValidationError("--history must be a range such as 6h, 48h, 7d, 90d, 1y or 2y, not '\(history.prefix(20))'.")
            }
            guard symbols.count == 1, !matrix else {
                throw ValidationError("--history takes one symbol (USDT: the tether premium), without --matrix.")
            }
        }
        for symbol in symbols where !CoinTicker.isValid(symbol) {
            throw ValidationError(ListingProblem.notAMarket(symbol).message(global.language))
        }
    }

    func run() async throws {
        let language = global.language
        let exchange = venue.exchange
        let settings = global.settings
        let premiumSettings = try PremiumSettings(premiumOptions, settings.sources)
        if let history, let range = HistoryRange.parse(history), let symbol = symbols.first {
            return try await printHistory(symbol.uppercased(), range: range, exchange: exchange, settings: settings)
        }
        if let amount = amount.flatMap({ TypedNumber.whole($0, in: ExecutablePremium.amounts) }), let symbol = symbols.first {
            return try await OneShotExecutable.run(
                symbol.uppercased(),
                amount: Double(amount),
                exchange: exchange,
                venue: venues.first ?? .binance,
                premium: premiumSettings,
                global: global,
                json: json
            )
        }
        if matrix {
            let query = PremiumMatrixQuery(
                venues: venues,
                sortByPremium: sort == "premium",
                symbols: symbols.isEmpty ? nil : Set(symbols.map { $0.uppercased() }),
                limit: limit
            )
            let (table, problems) = try await OneShotMatrix.table(premiumSettings, query: query, settings: settings, coinGecko: gecko)
            for problem in problems { FileHandle.standardError.write(Data((UIText.premiumUnavailable(language, ["reason": problem]) + "\n").utf8)) }
            return json ? printJSON(table) : printMatrix(table)
        }
        if symbols.contains(where: { $0.uppercased() == "USDT" }) {
            guard symbols.count == 1 else { throw CLIFailure.usage("sise: " + UIText.tetherPremiumAlone(language)) }
            return try await printTether(OneShotPremium.tether(premiumSettings, settings: settings))
        }
        let (rows, loaded) = try await OneShotPremium.board(exchange, quote: .krw, premium: premiumSettings, settings: settings, coinGecko: gecko)
        let premium = loaded ?? OneShotPremium.Result(inputs: .none, problems: [])
        let wanted = Set(symbols.map { $0.uppercased() })
        let unknown = wanted.subtracting(rows.map(\.id.base))
        guard unknown.isEmpty else {
            throw CLIFailure.usage("sise: " + UIText.unknownSymbol(language, ["list": unknown.sorted().joined(separator: ", ")]))
        }
        let shown = rows.filter { wanted.isEmpty || wanted.contains($0.id.base) }.sorted { $0.ticker.tradeValue24h > $1.ticker.tradeValue24h }
        let table = shown.map { PremiumRowJSON($0, inputs: premium.inputs, fxSource: premiumSettings.fx) }
        for problem in premium.problems {
            FileHandle.standardError.write(Data((UIText.premiumUnavailable(language, ["reason": problem]) + "\n").utf8))
        }
        if json { return printJSON(table) }
        let f = MarketFormatter(language: language)
        var out =
            TextColumns.fit(UIText.coin(language), width: 20) + TextColumns.fit(UIText.price(language), width: 16, alignment: .right)
            + TextColumns.fit("USD(T)", width: 16, alignment: .right) + TextColumns.fit(UIText.premium(language), width: 10, alignment: .right) + "\n"
        for (row, line) in zip(shown, table) {
            let tone = Terminal.color(PriceChange(signed: line.premium ?? 0).tone)
            let source = line.globalSource == .coingecko ? " (CoinGecko)" : ""
            out +=
                TextColumns.fit(row.market.name(in: language) + " " + line.symbol, width: 20)
                + TextColumns.fit(f.price(line.krwPrice, quote: "KRW"), width: 16, alignment: .right)
                + TextColumns.fit((line.globalPrice.map { f.price($0, currency: .usd) } ?? "-") + source, width: 16, alignment: .right)
                + Terminal.paint(TextColumns.fit(line.premium.map(f.rate) ?? "-", width: 10, alignment: .right), tone, enabled: global.useColor)
                + "\n"
        }
        out += premium.inputs.sourceLabel(language, fxSource: premiumSettings.fx) + "\n"
        print(out, terminator: "")
    }

    /// `sise premium USDT`: one row per exchange (`--json`: the table as `GET /api/premium/usdt`).
    private func printTether(_ table: TetherPremiumTable) throws {
        let language = global.language
        if let reason = table.unavailable { FileHandle.standardError.write(Data((reason + "\n").utf8)) }
        if json { return printJSON(table) }
        var out =
            TextColumns.fit(UIText.exchange(language), width: 12) + TextColumns.fit("KRW-USDT", width: 12, alignment: .right)
            + TextColumns.fit(UIText.tetherPremium(language), width: 12, alignment: .right) + "\n"
        for row in table.rows {
            let tone = Terminal.color(PriceChange(signed: row.premium ?? 0).tone)
            let note = row.display["problem"] ?? row.display["age"].map { " " + $0 } ?? ""
            out +=
                TextColumns.fit(row.display["exchange"] ?? row.exchange.rawValue, width: 12)
                + TextColumns.fit(row.display["usdtPrice"] ?? "-", width: 12, alignment: .right)
                + Terminal.paint(TextColumns.fit(row.display["premium"] ?? "-", width: 12, alignment: .right), tone, enabled: global.useColor)
                + (note.isEmpty ? "" : "  " + note) + "\n"
        }
        out +=
            [table.display["official"], table.display["age"].map { UIText.fxAge(language, ["age": $0]) }, table.display["fallback"]]
            .compactMap { $0 }.joined(separator: " · ") + "\n"
        print(out, terminator: "")
    }

    /// The matrix as a table: a block per venue, a column per exchange.
    private func printMatrix(_ table: PremiumMatrixTable) {
        let language = global.language
        var out =
            [table.display["title"], table.display["fx"], table.display["basis"], table.display["fallback"]].compactMap { $0 }.joined(
                separator: " · "
            ) + "\n"
        for venue in table.venues {
            out += "\n" + UIText.globalVenue(language) + ": " + venue.name + (venue.problem.map { " — " + $0 } ?? "") + "\n"
            out += TextColumns.fit(UIText.coin(language), width: 18)
            for exchange in table.exchanges { out += TextColumns.fit(exchange.displayName, width: 10, alignment: .right) }
            out += "\n"
            for row in table.rows {
                out += TextColumns.fit(row.name + " " + row.symbol, width: 18)
                for exchange in table.exchanges {
                    let cell = row.cells[exchange.rawValue]?[venue.id.rawValue]
                    let text = TextColumns.fit(cell?.display ?? "-", width: 10, alignment: .right)
                    out += Terminal.paint(text, Terminal.color(PriceChange(signed: cell?.premium ?? 0).tone), enabled: global.useColor)
                }
                out += "\n"
            }
        }
        print(out, terminator: "")
    }

    /// `--history`: the points kept in the store, as the API gives them (`--json`: the same
    /// answer; otherwise a line per point and a terminal sparkline).
    private func printHistory(_ symbol: String, range: Int64, exchange: Exchange, settings: Settings) async throws {
        let language = global.language
        let venue = symbol == "USDT" ? nil : venues.first
        let series = PremiumSeries(exchange: exchange, symbol: symbol, venue: venue)
        let resolution = HistoryResolution.serving(range: range)
        let database = try await Root.store(settings, storage)
        let points: [HistoryPoint]
        do {
            points = try await Root.oneShot(settings) { root in
                let now = root.clock.now
                return try await PremiumHistoryStore(database: database).points(series, resolution: resolution, from: now - range, to: now)
            }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        if json {
            struct Answer: Encodable {
                let series: String
                let resolution: String
                let points: [[Double]]
            }
            return printJSON(Answer(series: series.key, resolution: resolution.label, points: points.map { [Double($0.at), $0.value] }))
        }
        guard !points.isEmpty else { return print(UIText.premiumHistoryEmpty(language)) }
        let f = MarketFormatter(language: language)
        var out = series.key + " · " + resolution.label + "\n"
        for point in points { out += KSTText.timestamp(point.at) + "  " + f.rate(point.value) + "\n" }
        print(out, terminator: "")
    }
}
