import Foundation
import SiseCore
import SiseEngine
import Synchronization

/// 호가 and 체결 pushed to the pages that show a market (`{"type":"depth","exchange":"upbit",
/// "market":"KRW-BTC"}` on `/ws`; `{"type":"depth"}` alone stops). One upstream subscription per
/// (exchange, market) while any page watches it, whatever the number of pages, kept for `grace`
/// after the last one leaves (a reload or a step back does not start it over). The books and
/// tapes come from the exchange's depth stream (`DepthFeed`: one WebSocket for every watched
/// market of that exchange) where it has one, over REST (`DepthCache`) where it has none, and
/// over REST as well while the stream is silent — then the book says `"state":"delayed"`, and
/// `"stale"` when nothing fresh can be had (the last book, with its `at`). Each round encodes a
/// market's book and tape once per language and hands them to the watching pages, which are
/// sent only what changed — at most once per `interval`.
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
    /// Every subscription (`sise_depth_subscriptions` counts them): when it began, when its last
    /// page left (nil while watched), and what its pages were last sent.
    private let subscriptions = Mutex<[Key: Subscription]>([:])
    /// The exchanges' depth streams (none: every book is read over REST).
    private let feeds: [Exchange: DepthFeed]
    /// A stream that brought no book for this long is silent (`--silence`, as for the board).
    private let silence: Duration

    struct Subscription {
        /// When it began: a stream has `silence` to bring its first book before the book is delayed.
        var since: ContinuousClock.Instant
        /// When its last page left (nil while watched).
        var left: ContinuousClock.Instant?
        /// Whether the tape was filled from REST (a stream brings only trades from now on).
        var seeded = false
        /// The last book shown, for `stale`.
        var last: Shown?
        /// The messages of the last round per language, with what they were made of: a round
        /// whose book or tape has not changed encodes nothing again.
        var encoded: [Language: Encoded] = [:]
    }

    /// A book as shown, with its state and when it was received (from the stream or over REST):
    /// it stays as it was while younger than `silence`, and is `stale` after.
    struct Shown {
        let book: Orderbook
        let state: BookState
        let received: ContinuousClock.Instant
    }

    struct Encoded {
        var bookSource: BookSource?
        var book: String?
        var tapeSource: TapeSource?
        var tape: String?
    }

    struct BookSource: Equatable {
        let at: Int64
        let state: BookState
        let best: [Double]
    }

    struct TapeSource: Equatable {
        let newest: Int64
        let count: Int
    }

    init(
        context: ServerContext,
        metrics: ServerMetrics,
        grace: Duration = .seconds(10),
        feeds: [Exchange: DepthFeed] = [:],
        silence: Duration = .seconds(5)
    ) {
        self.context = context
        self.metrics = metrics
        self.grace = grace
        self.feeds = feeds
        self.silence = silence
    }

    /// The market a page asked for, checked as every face checks it.
    func key(exchange: String?, market: String, language: Language) throws(APIError) -> Key {
        guard let venue = exchange.map(Exchange.init(name:)) ?? .default else {
            throw APIError.badField(.exchange, .exchanges)
        }
        guard market.utf8.count <= 24, let id = MarketID(market.uppercased()) else { throw APIError.badField(.market, .marketCode) }
        try context.board(venue).touch()
        try context.requireListed(id, on: venue)
        return Key(exchange: venue, market: id)
    }

    /// A page has just asked: its subscription counts as watched, and the page gets the book now.
    func first(_ key: Key, to client: BoardClient, now: ContinuousClock.Instant = .now) async {
        let open = subscriptions.withLock { subscriptions -> Int in
            if subscriptions[key] == nil { subscriptions[key] = Subscription(since: now) }
            subscriptions[key]?.left = nil
            return subscriptions.count
        }
        metrics.depthSubscriptions.set(Double(open))
        tellFeeds(now: now)
        await push(key, to: [client], now: now)
    }

    /// One round over the pages that watch a market now.
    func round(_ watchers: [BoardClient], now: ContinuousClock.Instant = .now) async {
        var pages: [Key: [BoardClient]] = [:]
        for client in watchers { if let key = client.watchedDepth { pages[key, default: []].append(client) } }
        let open = subscriptions.withLock { subscriptions -> Int in
            for key in pages.keys {
                if subscriptions[key] == nil { subscriptions[key] = Subscription(since: now) }
                subscriptions[key]?.left = nil
            }
            for (key, subscription) in subscriptions where pages[key] == nil {
                if let left = subscription.left {
                    if left.duration(to: now) >= grace { subscriptions[key] = nil }
                } else {
                    subscriptions[key]?.left = now
                }
            }
            return subscriptions.count
        }
        metrics.depthSubscriptions.set(Double(open))
        tellFeeds(now: now)
        await withDiscardingTaskGroup { group in
            for (key, clients) in pages { group.addTask { await self.push(key, to: clients, now: now) } }
        }
    }

    /// Each exchange's stream carries exactly the markets subscribed (watched or in their grace).
    private func tellFeeds(now: ContinuousClock.Instant) {
        let keys = subscriptions.withLock { Array($0.keys) }
        for (exchange, feed) in feeds {
            feed.watch(Set(keys.lazy.filter { $0.exchange == exchange }.map(\.market)), now: now)
        }
    }

    /// The market's book and tape now, to each page in its language: from the stream while it
    /// brings books, else over REST; a book that is not consistent is dropped, counted and never sent.
    private func push(_ key: Key, to clients: [BoardClient], now: ContinuousClock.Instant) async {
        let feed = feeds[key.exchange]
        guard let subscription = subscriptions.withLock({ $0[key] }) else { return }
        let streamed = feed?.freshReading(key.market, within: silence, now: now)
        var book = streamed?.value
        let received = streamed?.received ?? now
        var state = BookState.live
        var tape = feed?.tape(key.market)?.value
        if streamed == nil || !subscription.seeded, let api = try? context.api(key.exchange) {
            async let bookRead = streamed == nil ? try? api.orderbook(market: key.market) : nil
            async let tapeRead = try? api.trades(market: key.market, count: TradeTape.limit)
            let (read, trades) = await (bookRead, tapeRead)
            if let read {
                do { book = try read.checked() } catch { metrics.droppedBook(exchange: key.exchange.rawValue, reason: "\(error)") }
            }
            if let trades {
                if let feed {
                    feed.seed(key.market, trades: trades, now: now)
                    tape = feed.tape(key.market)?.value ?? tape
                } else {
                    tape = trades
                }
                subscriptions.withLock { $0[key]?.seeded = true }
            }
            // Read over REST because the stream has been silent past the bound: delayed.
            if streamed == nil, feed != nil, subscription.since.duration(to: now) >= silence { state = .delayed }
        }
        if let book {
            subscriptions.withLock { [state] in $0[key]?.last = Shown(book: book, state: state, received: received) }
        } else if let last = subscription.last {
            // One failed read does not make a book of a moment ago stale; its age does.
            (book, state) = (last.book, last.received.duration(to: now) < silence ? last.state : .stale)
        }
        let top = book?.top(Self.levels)
        let bookSource = top.map { BookSource(at: $0.timestamp, state: state, best: [$0.asks.first?.price ?? 0, $0.bids.first?.price ?? 0]) }
        let shown = tape.map { TradeTape.newestFirst($0, limit: Self.tradeCount) }
        let tapeSource = shown.map { TapeSource(newest: $0.first?.sequentialID ?? 0, count: $0.count) }
        for (language, group) in Dictionary(grouping: clients, by: { $0.view?.language ?? .ko }) {
            let formatter = MarketFormatter(language: language)
            var encoded = subscriptions.withLock { $0[key]?.encoded[language] } ?? Encoded()
            if encoded.bookSource != bookSource || encoded.book == nil {
                encoded.book = top.map { Self.message("orderbook", state: state, OrderbookJSON($0, exchange: key.exchange, formatter: formatter)) }
                encoded.bookSource = bookSource
            }
            if encoded.tapeSource != tapeSource || encoded.tape == nil {
                encoded.tape = shown.map { Self.message("trades", TapeJSON($0, exchange: key.exchange, market: key.market, formatter: formatter)) }
                encoded.tapeSource = tapeSource
            }
            subscriptions.withLock { [encoded] in $0[key]?.encoded[language] = encoded }
            for client in group { client.depth(key, book: encoded.book, trades: encoded.tape) }
        }
    }

    /// `{"type":"orderbook","state":"live",…}` / `{"type":"trades",…}`: the REST answer's keys
    /// after the type (and, for a book, how fresh it is).
    static func message(_ type: String, state: BookState? = nil, _ body: some Encodable) -> String {
        "{\"type\":\"\(type)\"," + (state.map { "\"state\":\"\($0.rawValue)\"," } ?? "") + JSONText.encode(body).dropFirst()
    }
}
