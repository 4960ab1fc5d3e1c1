import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds

/// `sise candles KRW-BTC --interval 1h [--count N] [--json]`: candles with their indicators,
/// oldest first.
struct CandlesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "candles",
        abstract: "Print a market's candles with MA, EMA, Bollinger, RSI and MACD, oldest first."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var venue: ExchangeOption

    @Argument(help: "A market (KRW-BTC) or a symbol (BTC = KRW-BTC).")
    var market: String

    @Option(help: "1m, 5m, 15m, 1h, 4h, 1d or 1w.")
    var interval: String = "1h"

    @Option(help: "How many candles to print (1-200); indicators warm up on the 200 fetched.")
    var count: Int = 50

    @Flag(help: "One JSON array of rows: time, open, high, low, close, volume, ma, ema, bb, rsi, macd (null until enough candles).")
    var json = false

    static let fetched = 200

    func validate() throws {
        guard CandleInterval(rawValue: interval) != nil else { throw ValidationError("--interval must be one of \(CandleInterval.names).") }
        guard (1...Self.fetched).contains(count) else { throw ValidationError("--count must be 1 to \(Self.fetched).") }
        guard MarketID.resolve(market, quote: .krw) != nil else { throw ValidationError(ListingProblem.notAMarket(market).message(global.language)) }
    }

    func run() async throws {
        guard let unit = CandleInterval(rawValue: interval) else { return }
        let language = global.language
        let exchange = venue.exchange
        // The listing first, as `price` does: an unknown or stopped market is the user's mistake (exit 2).
        let (id, candles) = try await global.withListedMarket(exchange, market) { _, api, id in
            (id, try await api.candles(market: id, unit: unit.unit, count: Self.fetched, to: nil))
        }
        let series = CandleSeries(candles: candles, last: count)
        if json { return printJSON(series.rows.map(CandleRowJSON.init)) }
        let f = MarketFormatter(language: language)
        let header = [
            UIText.txTime(language), UIText.open(language), UIText.high(language), UIText.low(language), UIText.price(language),
            UIText.candleVolume(language, ["interval": interval]), "MA20", "RSI14",
        ]
        let lines = series.rows.map { r in
            PortfolioText.Line(
                cells: [
                    KSTText.timestamp(r.time), f.price(r.open, quote: id.quote), f.price(r.high, quote: id.quote),
                    f.price(r.low, quote: id.quote), f.price(r.close, quote: id.quote), NumberText.grouped(r.volume, decimals: 3),
                    (r.ma[20] ?? nil).map { f.price($0, quote: id.quote) } ?? "-", r.rsi.map { String(format: "%.1f", $0) } ?? "-",
                ],
                tone: PriceChange(signed: r.close - r.open).tone,
                allocation: nil
            )
        }
        for line in TextTable(header: header, numericFrom: 1, color: global.useColor).render(lines) { print(line) }
    }
}
