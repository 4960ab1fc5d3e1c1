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
