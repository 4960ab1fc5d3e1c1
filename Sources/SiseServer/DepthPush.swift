import Foundation
import SiseCore
import SiseEngine
import Synchronization

/// 호가 and 체결 pushed to the pages that show a market (`{"type":"depth","exchange":"upbit",
/// "market":"KRW-BTC"}` on `/ws`; `{"type":"depth"}` alone stops). One upstream subscription per
/// (exchange, market) while any page watches it, whatever the number of pages, kept for `grace`
/// after the last one leaves (a reload or a step back does not start it over). Each round reads
/// every watched market once (through the exchange's `DepthCache`), encodes its book and tape
/// once per language, and hands them to the watching pages, which are sent only what changed —
/// at most once per `interval`.
final class DepthPush: Sendable {
    struct Key: Hashable, Sendable {
        let exchange: Exchange
        let market: MarketID
    }

    /// A round at most this often: ≤ 4 messages of each kind a second to a page.
    static let interval = Duration.milliseconds(250)
    /// As many levels as the coin page shows (a phone's bytes).
    static let levels = 10
    static let tradeCount = 30

    private let context: ServerContext
    private let metrics: ServerMetrics
    /// How long a subscription outlives its last page (`ServerConfiguration.depthGrace`).
    private let grace: Duration
    /// Every subscription (`sise_depth_subscriptions` counts them): nil while watched, else when
    /// its last page left.
    private let subscriptions = Mutex<[Key: ContinuousClock.Instant?]>([:])

    init(context: ServerContext, metrics: ServerMetrics, grace: Duration = .seconds(10)) {
        self.context = context
        self.metrics = metrics
        self.grace = grace
    }

    /// The market a page asked for, checked as every face checks it.
    func key(exchange: String?, market: String, language: Language) throws(APIError) -> Key {
        guard let venue = exchange.map(Exchange.init(name:)) ?? .default else {
            throw APIError.badField("exchange", "one of \(Exchange.names)")
        }
        guard market.utf8.count <= 24, let id = MarketID(market.uppercased()) else { throw APIError.badField("market", "a market code such as KRW-BTC") }
        do {
            try context.board(venue).touch()
            try context.requireListed(id, on: venue, language)
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.badField("market", "\(id.code) is not listed on \(venue.rawValue)")
        }
        return Key(exchange: venue, market: id)
    }

    /// A page has just asked: its subscription counts as watched, and the page gets the book now.
    func first(_ key: Key, to client: BoardClient) async {
        let open = subscriptions.withLock { subscriptions -> Int in
            subscriptions[key] = .some(nil)
            return subscriptions.count
        }
        metrics.depthSubscriptions.set(Double(open))
        await push(key, to: [client])
    }

    /// One round over the pages that watch a market now.
    func round(_ watchers: [BoardClient], now: ContinuousClock.Instant = .now) async {
        var pages: [Key: [BoardClient]] = [:]
        for client in watchers { if let key = client.watchedDepth { pages[key, default: []].append(client) } }
        let open = subscriptions.withLock { subscriptions -> Int in
            for key in pages.keys { subscriptions[key] = .some(nil) }
            for (key, left) in subscriptions where pages[key] == nil {
                if let left {
                    if left.duration(to: now) >= grace { subscriptions[key] = nil }
                } else {
                    subscriptions[key] = .some(now)
                }
            }
            return subscriptions.count
        }
        metrics.depthSubscriptions.set(Double(open))
        await withDiscardingTaskGroup { group in
            for (key, clients) in pages { group.addTask { await self.push(key, to: clients) } }
        }
    }

    /// The market's book and tape now, to each page in its language; a book that is not
    /// consistent is dropped, counted and never sent.
    private func push(_ key: Key, to clients: [BoardClient]) async {
        guard let api = try? context.api(key.exchange) else { return }
        async let bookRead = try? api.orderbook(market: key.market)
        async let tapeRead = try? api.trades(market: key.market, count: Self.tradeCount)
        let (book, tape) = await (bookRead, tapeRead)
        var checked: Orderbook?
        if let book {
            do { checked = try book.checked().top(Self.levels) } catch { metrics.droppedBook(exchange: key.exchange.rawValue, reason: "\(error)") }
        }
        for (language, group) in Dictionary(grouping: clients, by: { $0.view?.language ?? .ko }) {
            let formatter = MarketFormatter(language: language)
            let bookText = checked.map { Self.message("orderbook", OrderbookJSON($0, exchange: key.exchange, formatter: formatter)) }
            let tapeText = tape.map { trades in
                Self.message("trades", TradesMessage(exchange: key.exchange.rawValue, market: key.market.code,
                                                      trades: TradeTape.newestFirst(trades, limit: Self.tradeCount).map { TradeJSON($0, formatter: formatter) }))
            }
            for client in group { client.depth(key, book: bookText, trades: tapeText) }
        }
    }

    struct TradesMessage: Encodable {
        let exchange: String
        let market: String
        let trades: [TradeJSON]
    }

    /// `{"type":"orderbook",…}` / `{"type":"trades",…}`: the REST answer's keys after the type.
    static func message(_ type: String, _ body: some Encodable) -> String {
        "{\"type\":\"\(type)\"," + JSONText.encode(body).dropFirst()
    }
}
