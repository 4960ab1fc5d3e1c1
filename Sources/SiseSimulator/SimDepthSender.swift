import Foundation

/// The 호가/체결 half of one simulated stream connection: which markets' books and tapes it
/// subscribed, the snapshot of each on subscribing, then a whole book per market `bookRate`
/// times a second and every new trade once, in the venue's spelling — with the book faults
/// (`bookStall` holds them back, `crossedBooks` crosses them). Stopped pairs (Korbit's) send
/// their empty snapshot and nothing more.
struct SimDepthSender {
    enum Style: Sendable { case upbit, korbit }

    let exchange: SimExchange
    let style: Style
    var still: @Sendable (SimMarket) -> Bool = { _ in false }
    private(set) var books: [SimMarket] = []
    private(set) var tapes: [SimMarket] = []
    private var lastRound = ContinuousClock.now
    /// The newest trade sent, per market code.
    private var lastTrade: [String: Int64] = [:]

    init(exchange: SimExchange, style: Style, still: @escaping @Sendable (SimMarket) -> Bool = { _ in false }) {
        self.exchange = exchange
        self.style = style
        self.still = still
    }

    var codes: Set<String> { Set(books.map(\.code) + tapes.map(\.code)) }

    /// Replaces the books and tapes subscribed; the snapshot frames of the markets (unless `realtimeOnly`).
    mutating func subscribe(books: [SimMarket], tapes: [SimMarket], realtimeOnly: Bool = false) -> [String] {
        self.books = books
        self.tapes = tapes
        // A stalled depth feed sends no snapshot either.
        let realtimeOnly = realtimeOnly || exchange.faults.bookStall
        let ms = Int64(exchange.now * 1_000)
        var frames: [String] = []
        for market in tapes {
            let newest = SimBook.trades(market, on: exchange, count: 1, now: ms).first
            lastTrade[market.code] = newest?.id ?? 0
            if !realtimeOnly, let newest, !still(market) { frames.append(tradeFrame(market, [newest], ms, snapshot: true)) }
        }
        if !realtimeOnly { frames += books.map { bookFrame($0, ms, snapshot: true) } }
        return frames
    }

    /// Adds markets (Korbit subscribes channel by channel); snapshots of the new ones.
    mutating func add(books more: [SimMarket] = [], tapes extra: [SimMarket] = []) -> [String] {
        let newBooks = more.filter { m in !books.contains { $0.code == m.code } }
        let newTapes = extra.filter { m in !tapes.contains { $0.code == m.code } }
        let (oldBooks, oldTapes) = (books, tapes)
        let frames = subscribe(books: newBooks, tapes: newTapes)
        (books, tapes) = (oldBooks + newBooks, oldTapes + newTapes)
        return frames
    }

    mutating func remove(_ codes: Set<String>, books fromBooks: Bool, tapes fromTapes: Bool) {
        if fromBooks { books.removeAll { codes.contains($0.code) } }
        if fromTapes { tapes.removeAll { codes.contains($0.code) } }
    }

    /// The frames due now: new trades as they happen, a book per market every 1/`bookRate` s.
    mutating func due(now: ContinuousClock.Instant = .now) -> [String] {
        let faults = exchange.faults
        guard !faults.bookStall, !books.isEmpty || !tapes.isEmpty else { return [] }
        let ms = Int64(exchange.now * 1_000)
        var frames: [String] = []
        for market in tapes where !still(market) {
            let last = lastTrade[market.code] ?? 0
            let fresh = SimBook.trades(market, on: exchange, count: 8, now: ms).filter { $0.id > last }
            guard let newest = fresh.first else { continue }
            lastTrade[market.code] = newest.id
            switch style {
            case .upbit: frames += fresh.reversed().map { tradeFrame(market, [$0], ms, snapshot: false) }
            case .korbit: frames.append(tradeFrame(market, fresh, ms, snapshot: false))
            }
        }
        if faults.bookRate > 0, lastRound.duration(to: now) >= .milliseconds(Int64(1_000 / faults.bookRate)) {
            lastRound = now
            frames += books.filter { !still($0) }.map { bookFrame($0, ms, snapshot: false) }
        }
        return frames
    }

    private func bookFrame(_ market: SimMarket, _ ms: Int64, snapshot: Bool) -> String {
        let stopped = still(market)
        let levels = style == .upbit ? 15 : 30
        let (asks, bids) =
            stopped
            ? ([], [])
            : SimBook.book(
                market,
                price: exchange.ticker(market, atMilliseconds: ms).price,
                at: ms,
                levels: levels,
                crossed: exchange.faults.crossedBooks
            )
        switch style {
        case .upbit:
            var json = JSONWriter(capacity: 2_000)
            SimDepthWriter.upbitBook(market, asks: asks, bids: bids, at: ms, stream: snapshot ? "SNAPSHOT" : "REALTIME", into: &json)
            return json.text
        case .korbit:
            return SimDepthWriter.korbitFrame(market, type: "orderbook", at: ms, snapshot: snapshot) {
                SimDepthWriter.korbitBook(asks: asks, bids: bids, at: ms, into: &$0)
            }
        }
    }

    /// Upbit: one trade a frame; Korbit: the new trades in one frame, newest first.
    private func tradeFrame(_ market: SimMarket, _ trades: [SimBook.Trade], _ ms: Int64, snapshot: Bool) -> String {
        switch style {
        case .upbit:
            var json = JSONWriter(capacity: 400)
            guard let trade = trades.first else { return "" }
            let prevClose = exchange.ticker(market, atMilliseconds: ms).prevClose
            SimDepthWriter.upbitTrade(market, trade, prevClose: prevClose, stream: snapshot ? "SNAPSHOT" : "REALTIME", into: &json)
            return json.text
        case .korbit:
            return SimDepthWriter.korbitFrame(market, type: "trade", at: ms, snapshot: snapshot) { json in
                json.beginArray()
                for trade in trades { SimDepthWriter.korbitTrade(trade, into: &json) }
                json.endArray()
            }
        }
    }
}
