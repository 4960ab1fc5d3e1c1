import ArgumentParser
import Foundation
import SiseCore
import SiseFeeds

/// `sise orderbook KRW-BTC [--exchange …] [--levels N] [--json]`: the market's 호가 now — asks
/// above (best at the bottom), bids below, sizes beside; a book that is not consistent (crossed,
/// unsorted) is never shown.
struct OrderbookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "orderbook", abstract: "Print a market's order book, best levels first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var venue: ExchangeOption

    @Argument(help: "A market (KRW-BTC) or a symbol (BTC = KRW-BTC).")
    var market: String

    @Option(help: "Levels per side (1-30).")
    var levels: Int = 10

    @Flag(help: #"{"exchange","market","at","asks":[{"price","size"}],"bids":[…],"totalAskSize","totalBidSize"}, decimal strings."#)
    var json = false

    func validate() throws {
        guard (1...30).contains(levels) else { throw ValidationError("--levels must be 1 to 30.") }
    }

    func run() async throws {
        let language = global.language
        let exchange = venue.exchange
        let book = try await global.withListedMarket(exchange, market) { _, api, id in try await api.orderbook(market: id) }
        let shown: Orderbook
        do { shown = try book.checked().top(levels) } catch {
            throw CLIFailure(code: .upstream, message: "sise: " + UIText.orderbookInconsistent(language))
        }
        if json { return printJSON(OrderbookJSON(shown, exchange: exchange, formatter: MarketFormatter(language: language))) }
        let f = MarketFormatter(language: language)
        let quote = shown.market.quote
        let rows =
            shown.asks.reversed().map { [NumberText.grouped($0.size, decimals: 4), f.price($0.price, quote: quote), ""] }
            + shown.bids.map { ["", f.price($0.price, quote: quote), NumberText.grouped($0.size, decimals: 4)] }
        let header = [UIText.bookAskSize(language), UIText.bookPrice(language), UIText.bookBidSize(language)]
        let lines = rows.enumerated().map { i, cells in
            PortfolioText.Line(cells: cells, tone: i < shown.asks.count ? .fall : .rise, allocation: nil)
        }
        print("\(exchange.displayName) \(shown.market.code)  \(KSTText.timestamp(shown.timestamp))")
        for line in TextTable(header: header, numericFrom: 0, color: global.useColor).render(lines) { print(line) }
    }
}

/// `sise trades KRW-BTC [--exchange …] [--count N] [--json]`: the market's 체결, newest first.
struct TradesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trades", abstract: "Print a market's recent trades, newest first.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var venue: ExchangeOption

    @Argument(help: "A market (KRW-BTC) or a symbol (BTC = KRW-BTC).")
    var market: String

    @Option(help: "How many trades (1-50).")
    var count: Int = 20

    @Flag(help: #"One JSON array of {"id","at","price","size","side":"buy|sell"} (decimal strings)."#)
    var json = false

    func validate() throws {
        guard (1...50).contains(count) else { throw ValidationError("--count must be 1 to 50.") }
    }

    func run() async throws {
        let language = global.language
        let exchange = venue.exchange
        let trades = try await global.withListedMarket(exchange, market) { _, api, id in
            TradeTape.newestFirst(try await api.trades(market: id, count: count))
        }
        if json { return printJSON(trades.map { TradeJSON($0, formatter: MarketFormatter(language: language)) }) }
        let f = MarketFormatter(language: language)
        let header = [UIText.txTime(language), UIText.bookPrice(language), UIText.quantity(language), UIText.tradeSide(language)]
        let lines = trades.map { trade in
            PortfolioText.Line(
                cells: [
                    KSTText.timestamp(trade.timestamp), f.price(trade.price, quote: trade.market.quote),
                    NumberText.grouped(trade.volume, decimals: 4), trade.side == .bid ? UIText.txBuy(language) : UIText.txSell(language),
                ],
                tone: trade.side == .bid ? .rise : .fall,
                allocation: nil
            )
        }
        for line in TextTable(header: header, numericFrom: 1, color: global.useColor).render(lines) { print(line) }
        if let strength = TradeTape.strength(trades) { print(UIText.tradeStrength(language, ["percent": TradeTape.strengthText(strength)])) }
    }
}
