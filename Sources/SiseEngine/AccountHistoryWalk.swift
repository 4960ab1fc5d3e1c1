import Foundation
import SiseCore
import SiseFeeds

/// Walks an exchange account's closed orders forward from `since` to `until`, a window at a
/// time (the exchange's longest: seven days on Upbit and Bithumb), oldest first: a window that
/// comes back full (the exchange's page: the newer orders left out) is read again from its newest
/// order so far — each call brings orders not seen before, so the walk is as long as the history,
/// never longer (a page of one instant's orders ends the window: nothing between can be asked
/// for). Every call waits its turn in the key's private budget (`PrivateRateLimits`). Trades are
/// handed on in batches as the walk goes — oldest first, so what is kept is always a history
/// whose sells follow their buys, and an interrupted walk resumes after the newest one kept.
public struct AccountHistoryWalk: Sendable {
    /// How far a walk has come.
    public struct Progress: Sendable, Equatable {
        /// Epoch ms walked forward to (the span from `since` to here is read).
        public var reached: Int64
        public var since: Int64
        public var until: Int64
        public var orders: Int
        public var calls: Int

        /// 0…1 of the span read.
        public var fraction: Double {
            let span = until - since
            return span <= 0 ? 1 : min(1, max(0, Double(reached - since) / Double(span)))
        }
    }

    private let source: any AccountHistorySource
    /// Trades handed on at a time (and at the end).
    private let batch: Int

    public init(source: any AccountHistorySource, batch: Int = 5_000) {
        self.source = source
        self.batch = max(batch, 1)
    }

    /// Every order made in `[since, until]`, oldest first, handed to `keep` a batch at a time;
    /// `progress` after each window. Returns how many orders were found.
    @discardableResult
    public func walk(
        since: Int64,
        until: Int64,
        keep: @Sendable ([ExchangeTrade]) async throws -> Void,
        progress: @Sendable (Progress) -> Void = { _ in }
    ) async throws -> Int {
        var pending: [ExchangeTrade] = []
        var seen = Set<String>()
        var found = 0
        var start = since
        let window = max(source.longestWindow - 1, 1)
        while start <= until {
            let end = min(until, start + window)
            var from = start
            while true {
                try Task.checkCancellation()
                let page = try await source.closedOrders(from: from, to: end)
                for trade in page.trades where seen.insert(trade.id).inserted {
                    pending.append(trade)
                    found += 1
                }
                guard !page.complete, let newest = page.newest, newest > from, newest <= end else { break }
                from = newest
            }
            if pending.count >= batch {
                try await keep(pending)
                pending = []
            }
            progress(Progress(reached: end, since: since, until: until, orders: found, calls: source.calls))
            if end == until { break }
            start = end + 1
        }
        if !pending.isEmpty { try await keep(pending) }
        return found
    }
}
