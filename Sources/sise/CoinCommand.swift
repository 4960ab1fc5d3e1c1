import ArgumentParser
import Foundation
import SiseCharts
import SiseCore
import SiseEngine
import SiseFeeds

/// `sise coin ID|SYMBOL`: one coin's figures and a chart (braille in a terminal). Upbit markets
/// (`BTC`, `KRW-BTC`) chart from Upbit candles; anything else is a CoinGecko id.
struct CoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "coin", abstract: "One coin's price, statistics and chart.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var gecko: CoinGeckoOptions

    @Argument(help: "An Upbit symbol or market (BTC, KRW-BTC) or a CoinGecko id (bitcoin).")
    var coin: String

    @Option(help: "Chart range: 1d, 7d, 30d or 1y.")
    var range: String = "7d"

    @Flag(help: "Print the figures and the chart points as JSON.")
    var json = false

    func validate() throws {
        guard ChartModel.Range(rawValue: range) != nil else { throw ValidationError("--range must be 1d, 7d, 30d or 1y, not '\(range)'.") }
    }

    struct Output: Encodable {
        let id: String
        let source: String
        let name: String
        let symbol: String
        let range: String
        let price: Double?
        let change24h: Double?
        let display: [String: String]
        let points: [[Double]]
    }

    func run() async throws {
        let range = ChartModel.Range(rawValue: range)!
        let language = global.language
        let f = MarketFormatter(language: language)
        let output: Output
        // `BTC` and `KRW-BTC` are Upbit markets; lower-case names (`bitcoin`, `usd-coin`) are CoinGecko ids.
        let parsed = coin.contains("-") ? MarketID(coin) : (coin == coin.uppercased() ? MarketID("KRW-\(coin)") : nil)
        let upbitMarket = parsed.flatMap { QuoteCurrency(code: $0.quote) != nil && coin != coin.lowercased() ? $0 : nil }
        if let market = upbitMarket {
            output = try await global.withUpbit { client in
                guard let listing = try await client.markets().first(where: { $0.id == market }) else {
                    throw CLIFailure.usage(language == .ko ? "sise: 알 수 없는 종목입니다: \(coin)" : "sise: unknown symbol: \(coin)")
                }
                let rows = try await BoardLoader(api: client).load(markets: [market], listing: [listing])
                guard let row = rows.first else { throw CLIFailure.usage("sise: \(coin)") }
                let points = try await UpbitChartPoints.load(client, market: market, range: range)
                let d = f.display(row)
                return Output(id: market.code, source: "upbit", name: row.market.name(in: language), symbol: row.market.symbol,
                              range: range.rawValue, price: row.ticker.price, change24h: row.ticker.signedChangeRate * 100,
                              display: ["price": d.price, "changeRate": d.changeRate, "changePrice": d.changePrice, "tradeValue": d.tradeValue],
                              points: points.map { [Double($0.time), $0.price] })
            }
        } else {
            output = try await withCoinGecko(gecko, language) { client in
                async let detail = client.coin(id: coin.lowercased())
                async let chart = client.chart(id: coin.lowercased(), days: range.days)
                let (market, points) = try await (detail, chart)
                return Output(id: market.id, source: "coingecko", name: market.name, symbol: market.symbol, range: range.rawValue,
                              price: market.price, change24h: market.change24h,
                              display: ["price": market.price.map { f.price($0, quote: "KRW") } ?? "-",
                                        "changeRate": market.change24h.map { f.rate($0 / 100) } ?? "-",
                                        "marketCap": market.marketCap.map { f.tradeValue($0, quote: "KRW") } ?? "-"],
                              points: points.map { [Double($0.time), $0.price] })
            }
        }
        if json { return printJSON(output) }
        var lines = ["\(output.name) \(output.symbol)  \(output.display["price"] ?? "-") KRW  \(output.display["changeRate"] ?? "")"]
        let model = ChartModel(points: output.points.map { PricePoint(time: Int64($0[0]), price: $0[1]) }, range: range,
                               quote: upbitMarket?.quote ?? "KRW")
        if Terminal.isTerminal(stdout: true) || ProcessInfo.processInfo.environment["SISE_FORCE_CHART"] == "1" {
            lines += BrailleChart.render(model, columns: 60, rows: 12, language: language)
        } else if let first = model.points.first, let last = model.points.last {
            lines.append("\(range.rawValue): \(model.points.count) points, \(f.price(first.price, quote: model.quote)) → \(f.price(last.price, quote: model.quote))")
        }
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
