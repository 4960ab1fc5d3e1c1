import ArgumentParser
import Foundation
import SiseCharts
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// `sise coin ID|SYMBOL`: one coin's figures and a chart (braille in a terminal). Upbit markets
/// (`BTC`, `KRW-BTC`) chart from Upbit candles; anything else is a CoinGecko id.
struct CoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "coin", abstract: "One coin's price, statistics and chart.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var gecko: CoinGeckoOptions
    @OptionGroup var venue: ExchangeOption
    @OptionGroup var storage: StoreOptions

    @Argument(help: "A symbol or market of the exchange (BTC, KRW-BTC) or a CoinGecko id (bitcoin).")
    var coin: String

    @Option(help: "Chart range: 1d, 7d, 30d or 1y.")
    var range: String = "7d"

    @Flag(help: "Print the figures and the chart points as JSON.")
    var json = false

    func validate() throws {
        guard ChartModel.Range(rawValue: range) != nil else { throw ValidationError("--range must be 1d, 7d, 30d or 1y, not '\(range)'.") }
    }

    func run() async throws {
        guard let range = ChartModel.Range(rawValue: range) else { throw ValidationError("--range must be 1d, 7d, 30d or 1y, not '\(range)'.") }
        let language = global.language
        let id = CoinReference(coin).id
        let settings = global.settings
        // The CoinGecko cache is the one `sise serve` keeps (the same store, `--database` and all):
        // repeated lookups cost no calls. Without it the lookup still runs, uncached.
        let database: AppDatabase?
        do { database = try await Root.store(settings, storage) } catch let failure as CLIFailure {
            FileHandle.standardError.write(Data((failure.message + "\n").utf8))
            database = nil
        }
        let looked: Result<CoinDetail, any Error>
        do { looked = .success(try await lookUp(id, range: range, settings: settings, cache: database)) } catch { looked = .failure(error) }
        await database?.close()
        let detail = try looked.get()
        if json { return printJSON(detail) }
        var lines = ["\(detail.name) \(detail.symbol)  \(detail.display.price) \(detail.quote)  \(detail.display.changeRate)"]
        if Terminal.isTerminal(stdout: true) || ProcessInfo.processInfo.environment["SISE_FORCE_CHART"] == "1" {
            lines += BrailleChart.render(detail.chart, columns: 60, rows: 12, language: language)
        } else if let first = detail.chart.points.first, let last = detail.chart.points.last {
            let f = MarketFormatter(language: language)
            lines.append(
                "\(range.rawValue): \(detail.chart.points.count) points, "
                    + "\(f.price(first.price, quote: detail.chart.quote)) → \(f.price(last.price, quote: detail.chart.quote))"
            )
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// The coin's figures and chart: from `venue`'s market when it lists one, else CoinGecko's.
    private func lookUp(_ id: String, range: ChartModel.Range, settings: Settings, cache database: AppDatabase?) async throws -> CoinDetail {
        let language = settings.language
        return try await Root.oneShot(settings) { root in
            let exchange = venue.exchange
            let api = root.api(exchange)
            let coinInfo = CoinInfoService(
                api: try root.coinGecko(gecko),
                cache: database.map { DatabaseCache(database: $0) } ?? NoCache(),
                now: root.clock.milliseconds
            )
            return try await whileRunning(coinInfo) {
                do {
                    let row: (MarketID) async throws -> MarketRow? = { market in
                        guard let listing = try await api.markets().first(where: { $0.id == market }) else { return nil }
                        return try await BoardLoader(api: api, exchange: exchange).load(markets: [market], listing: [listing]).first
                    }
                    return try await CoinDetail.load(
                        id,
                        range: range,
                        language: language,
                        exchange: exchange,
                        upbit: api,
                        coinInfo: coinInfo,
                        row: row
                    )
                } catch let failure as CoinDetail.Failure {
                    switch failure {
                    case .badID: throw CLIFailure.usage("sise: " + UIText.badCoinID(language, ["coin": coin]))
                    case .notFound:
                        throw CLIFailure(
                            code: CoinDetail.upbitMarket(id) != nil ? .usage : .upstream,
                            message: "sise: " + UIText.unknownCoin(language, ["coin": coin])
                        )
                    }
                }
            }
        }
    }
}
