import Foundation
import SiseCore

/// A board's rows between flushes: the listing, each market's newest ticker, what changed and
/// what was delisted since the last flush, and when each market's figures last arrived. A value:
/// the board's actor feeds it tickers and listings and takes a flush's worth of news from it.
struct BoardRows {
    let exchange: Exchange
    let quotes: Set<String>
    private(set) var markets: [MarketID: Market] = [:]
    private(set) var tickSizes: [MarketID: Decimal] = [:]
    private(set) var rows: [MarketID: MarketRow] = [:]
    /// When each market applied since the last flush arrived (epoch ms); the published board keeps them all.
    private var arrivedAt: [MarketID: Int64] = [:]
    /// The newest arrival, kept as ticks arrive rather than searched for on every flush.
    private(set) var lastDataAt: Int64?
    /// Tickers of markets not (yet) in the listing: applied when the listing names them.
    private var unlisted: [MarketID: Ticker] = [:]
    private var changed: Set<MarketID> = []
    private var removed: [MarketID] = []
    /// Tickers applied so far.
    private(set) var applied = 0

    /// What a flush hands the subscribers.
    struct Flush {
        /// Rows whose figures or listing changed.
        var changed: [MarketRow]
        /// Rows confirmed with the same figures: fresh again, news to nobody.
        var confirmed: [MarketRow]
        var arrivals: [MarketID: Int64]
        var gone: [MarketID]
        /// Something anyone can see changed.
        var news: Bool { !changed.isEmpty || !gone.isEmpty }
    }

    init(exchange: Exchange, quotes: [QuoteCurrency]) {
        self.exchange = exchange
        self.quotes = Set(quotes.map(\.rawValue))
    }

    /// Something arrived since the last flush (a change, a delisting, or a confirmation).
    var pending: Bool { !changed.isEmpty || !removed.isEmpty || !arrivedAt.isEmpty }

    /// The listed markets of the board's quotes, in order (what the stream subscribes to).
    var subscribed: [MarketID] { markets.keys.filter { quotes.contains($0.quote) }.sorted() }

    /// A ticker that arrived at `at`: an older one than the row's is ignored; the same figures
    /// again (a snapshot after a reconnect, a poll right after a frame) confirm the row fresh
    /// without telling anyone.
    mutating func apply(_ ticker: Ticker, at: Int64) {
        let id = ticker.market
        guard let market = markets[id] else {
            unlisted[id] = ticker
            return
        }
        if let current = rows[id], current.ticker.timestamp > ticker.timestamp { return }
        arrivedAt[id] = at
        lastDataAt = max(lastDataAt ?? at, at)
        applied += 1
        if let current = rows[id], Self.sameFigures(current.ticker, ticker) {
            rows[id]?.ticker = ticker
            return
        }
        rows[id] = MarketRow(market: market, ticker: ticker, tickSize: tickSizes[id], exchange: exchange)
        changed.insert(id)
    }

    /// Equal but for the times they were stamped with.
    static func sameFigures(_ a: Ticker, _ b: Ticker) -> Bool {
        var restamped = b
        restamped.timestamp = a.timestamp
        restamped.tradeTimestamp = a.tradeTimestamp
        return restamped == a
    }

    /// Takes a new market list at `at`: updates names and flags, adds listings (with a ticker
    /// that waited for them), removes delistings.
    mutating func install(listing: [Market], tickSizes found: [MarketID: Decimal], at: Int64) {
        let wanted = listing.filter { quotes.contains($0.id.quote) }
        let next = Dictionary(wanted.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in markets.keys where next[id] == nil {
            rows[id] = nil
            arrivedAt[id] = nil
            removed.append(id)
        }
        markets = next
        tickSizes = found
        for (id, market) in next {
            if var row = rows[id] {
                row.market = market
                row.tickSize = found[id]
                if row != rows[id] {
                    rows[id] = row
                    changed.insert(id)
                }
            } else if let ticker = unlisted.removeValue(forKey: id) {
                apply(ticker, at: at)
            }
        }
    }

    /// What changed since the last flush, handed over once.
    mutating func take() -> Flush {
        let flush = Flush(
            changed: changed.compactMap { rows[$0] },
            confirmed: arrivedAt.keys.compactMap { changed.contains($0) ? nil : rows[$0] },
            arrivals: arrivedAt,
            gone: removed
        )
        changed.removeAll(keepingCapacity: true)
        arrivedAt.removeAll(keepingCapacity: true)
        removed.removeAll()
        return flush
    }
}
