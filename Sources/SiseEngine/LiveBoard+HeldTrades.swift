import SiseCore

/// Every tick a board applies, read for the last trade at or before one instant — the board's
/// rows keep only each flush's newest tick, and a market that traded on both sides of the instant
/// inside one coalescing window would lose the trade that counts.
struct HeldTrades: Sendable {
    struct Trade: Equatable, Sendable {
        var price: Double
        var at: Int64
    }

    let instant: Int64
    private(set) var trades: [MarketID: Trade] = [:]
    /// A tick traded after the instant arrived: the feed was reading when the instant passed.
    private(set) var sawLater = false

    init(instant: Int64, rows: some Sequence<MarketRow>) {
        self.instant = instant
        for row in rows { observe(row.ticker) }
    }

    mutating func observe(_ ticker: Ticker) {
        guard ticker.price > 0, ticker.price.isFinite else { return }
        guard ticker.tradeTimestamp <= instant else {
            sawLater = true
            return
        }
        if let known = trades[ticker.market], known.at > ticker.tradeTimestamp { return }
        trades[ticker.market] = Trade(price: ticker.price, at: ticker.tradeTimestamp)
    }
}

/// What a board held across the instant.
public struct HeldTradeReading: Sendable {
    /// Each KRW market's last trade at or before the instant.
    public var trades: [(market: Market, price: Double, at: Int64)]
    /// The stream was live from the hold until now, with no drop, and read a trade after the
    /// instant (so its silence about a market confirms that market's last price).
    public var watchedThrough: Bool
}

extension LiveBoard {
    /// Starts holding every market's last trade at or before `instant` (seeded from the rows now).
    /// Several holders of one instant share one hold (it ends when the last releases it).
    public func holdTrades(atOrBefore instant: Int64) {
        drainInbox()
        if let held, held.instant == instant, let since = heldSince {
            heldSince = (since.disconnects, since.live, since.holders + 1)
            return
        }
        held = HeldTrades(instant: instant, rows: board.rows.values)
        heldSince = (streamDisconnects, status.state == .live, 1)
    }

    /// What was held, and whether the stream watched through the instant; the hold ends.
    public func releaseHeldTrades() -> HeldTradeReading? {
        drainInbox()
        guard let held, let since = heldSince else { return nil }
        if since.holders > 1 {
            heldSince = (since.disconnects, since.live, since.holders - 1)
        } else {
            self.held = nil
            heldSince = nil
        }
        let markets = board.rows
        let trades = held.trades.compactMap { id, trade -> (market: Market, price: Double, at: Int64)? in
            guard id.quote == QuoteCurrency.krw.rawValue, let market = markets[id]?.market else { return nil }
            return (market, trade.price, trade.at)
        }
        let steady = since.disconnects == streamDisconnects && since.live
        return HeldTradeReading(trades: trades, watchedThrough: steady && status.state == .live && held.sawLater)
    }
}
