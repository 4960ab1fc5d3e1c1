import Foundation
import SiseCore
import SiseFeeds

/// `sise watch --orderbook KRW-BTC`: the market's book each time it changes, as NDJSON
/// (`{"type":"orderbook",…OrderbookJSON}`) or a line of the touch (best ask, best bid and their
/// sizes), read every half second over REST; a book that is not consistent is skipped (and said
/// once on stderr), never printed. Stops after `count` books, `duration`, or a signal.
struct WatchOrderbook {
    let global: GlobalOptions
    let exchange: Exchange
    let market: String
    let json: Bool
    let count: Int?
    let duration: Duration?
    static let interval = Duration.milliseconds(500)

    private struct Line: Encodable {
        var type = "orderbook"
        let book: OrderbookJSON

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(type, forKey: .type)
            try book.encode(to: encoder)
        }

        enum Key: String, CodingKey { case type }
    }

    func run() async throws {
        let language = global.language
        let deadline = duration.map { ContinuousClock.now.advanced(by: $0) }
        try await global.withListedMarket(exchange, market) { api, id in
            var last: [Orderbook.Level]?
            var printed = 0
            var warned = false
            let formatter = MarketFormatter(language: language)
            while !Task.isCancelled, deadline.map({ ContinuousClock.now < $0 }) ?? true {
                if let book = try? await api.orderbook(market: id) {
                    if let shown = try? book.checked().top(15) {
                        if shown.levels != last {
                            last = shown.levels
                            print(shown, formatter)
                            printed += 1
                            if let count, printed >= count { return }
                        }
                    } else if !warned {
                        warned = true
                        FileHandle.standardError.write(Data(("sise: " + UIText.orderbookInconsistent(language) + "\n").utf8))
                    }
                }
                try? await Task.sleep(for: Self.interval)
            }
        }
    }

    private func print(_ book: Orderbook, _ formatter: MarketFormatter) {
        let text: String
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            let data = (try? encoder.encode(Line(book: OrderbookJSON(book, exchange: exchange, formatter: formatter)))) ?? Data("{}".utf8)
            text = String(decoding: data, as: UTF8.self)
        } else {
            let quote = book.market.quote
            let ask = book.asks.first.map { "\(formatter.price($0.price, quote: quote)) × \(NumberText.grouped($0.size, decimals: 4))" } ?? "-"
            let bid = book.bids.first.map { "\(formatter.price($0.price, quote: quote)) × \(NumberText.grouped($0.size, decimals: 4))" } ?? "-"
            text = "\(KSTText.clock(book.timestamp)) \(book.market.code)  \(UIText.bookAskSize(global.language)) \(ask)  \(UIText.bookBidSize(global.language)) \(bid)"
        }
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
