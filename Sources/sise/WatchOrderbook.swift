import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds
import Synchronization

/// `sise watch --orderbook KRW-BTC`: the market's book each time it changes, as NDJSON
/// (`{"type":"orderbook",…OrderbookJSON}`) or a line of the touch (best ask, best bid and their
/// sizes) — from the exchange's depth WebSocket where it has one (`DepthFeed`), read over REST
/// every half second where it has none or while that stream is silent past `--silence`; a book
/// that is not consistent is skipped (and said once on stderr), never printed. Stops after
/// `count` books, `duration`, or a signal.
struct WatchOrderbook {
    let global: GlobalOptions
    let exchange: Exchange
    let market: String
    let json: Bool
    let count: Int?
    let duration: Duration?
    var silence: Duration = .seconds(5)
    static let interval = Duration.milliseconds(500)
    /// How often the stream's latest book is looked at.
    static let streamInterval = Duration.milliseconds(100)

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
        let warned = SaidOnce()
        let warn: @Sendable () -> Void = {
            if warned.first() { FileHandle.standardError.write(Data(("sise: " + UIText.orderbookInconsistent(language) + "\n").utf8)) }
        }
        try await global.withListedMarket(exchange, market) { root, api, id in
            var logger = Logger(label: "sise.watch")
            logger.logLevel = .critical
            let feed = root.depthFeed(exchange, silence: silence, logger: logger)
            feed?.reportDrops { _ in warn() }
            feed?.watch([id])
            await withTaskGroup(of: Void.self) { group in
                if let feed { group.addTask { try? await feed.run() } }
                var last: [Orderbook.Level]?
                var printed = 0
                var lastRead = ContinuousClock.now.advanced(by: .zero - Self.interval)
                let formatter = MarketFormatter(language: language)
                while !Task.isCancelled, deadline.map({ ContinuousClock.now < $0 }) ?? true {
                    var book = feed?.freshBook(id, within: silence)
                    // No stream here, or it is silent: over REST, every half second.
                    if book == nil, lastRead.duration(to: .now) >= Self.interval, let read = try? await api.orderbook(market: id) {
                        lastRead = .now
                        do { book = try read.checked() } catch { warn() }
                    }
                    if let shown = book?.top(15), shown.levels != last {
                        last = shown.levels
                        print(shown, formatter)
                        printed += 1
                        if let count, printed >= count { break }
                    }
                    try? await Task.sleep(for: feed == nil ? Self.interval : Self.streamInterval)
                }
                group.cancelAll()
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
            text =
                "\(KSTText.clock(book.timestamp)) \(book.market.code)  \(UIText.bookAskSize(global.language)) \(ask)  \(UIText.bookBidSize(global.language)) \(bid)"
        }
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// True the first time it is asked, false after (a warning said once, from any thread).
private final class SaidOnce: Sendable {
    private let said = Atomic(false)
    func first() -> Bool { !said.exchange(true, ordering: .relaxed) }
}
