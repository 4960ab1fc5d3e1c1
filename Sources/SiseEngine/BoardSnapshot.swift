import Foundation
import SiseCore

/// An immutable view of a board at one moment: what faces render from.
public struct BoardSnapshot: Sendable {
    public var rows: [MarketID: MarketRow]
    /// Epoch milliseconds when each market's data last arrived (stale marks use it).
    public var receivedAt: [MarketID: Int64]
    public var status: ConnectivityStatus

    public init(rows: [MarketID: MarketRow], receivedAt: [MarketID: Int64], status: ConnectivityStatus) {
        self.rows = rows
        self.receivedAt = receivedAt
        self.status = status
    }

    /// When a market's price was last known good: its own last data, or — while the board is live
    /// — the board's last data (a live stream sends a market's frame whenever its price changes, so
    /// its silence about one market confirms that price). The premium's legs are dated by it.
    public func confirmedAt(_ id: MarketID) -> Int64? {
        guard let own = receivedAt[id] else { return nil }
        guard status.state == .live, let last = status.lastDataAt else { return own }
        return max(own, last)
    }

    /// Rows of one quote market.
    public func rows(quote: QuoteCurrency) -> [MarketRow] {
        rows.values.filter { $0.id.quote == quote.rawValue }
    }
}

/// What a board subscriber receives: first a snapshot, then coalesced changes.
public enum BoardUpdate: Sendable {
    case snapshot(BoardSnapshot)
    /// Rows whose ticker or listing changed since the last update (newest state only).
    case changes([MarketRow])
    /// Markets that were delisted.
    case removed([MarketID])
    case status(ConnectivityStatus)
}
