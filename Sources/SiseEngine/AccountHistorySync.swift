import Foundation
import SiseCore
import SiseFeeds
import SiseStore
import Synchronization

/// An exchange account's trades kept as portfolio transactions: the history walked forward
/// from where the last sync of this exchange ended (or from `since`), each batch kept as the walk
/// goes (a re-sync adds nothing twice: each trade carries the exchange's id), within the key's
/// private budget.
public struct AccountHistorySync: Sendable {
    /// What a sync did.
    public struct Outcome: Sendable, Encodable, Equatable {
        public var exchange: Exchange
        /// The span walked, epoch ms.
        public var since: Int64
        public var until: Int64
        /// Orders found, kept for the first time, and already kept.
        public var orders: Int
        public var added: Int
        public var kept: Int
        /// Private calls made, and the least time the exchange's budget allows for them.
        public var calls: Int
        public var seconds: Double
        public var boundSeconds: Double
    }

    private let portfolio: PortfolioStore
    private let clock: WallClock

    public init(portfolio: PortfolioStore, clock: WallClock = .system) {
        self.portfolio = portfolio
        self.clock = clock
    }

    /// When an exchange's history can begin (its first day of trading), epoch ms.
    public static func opened(_ exchange: Exchange) -> Int64 {
        switch exchange {
        case .upbit: 1_508_803_200_000  // 2017-10-24
        case .bithumb: 1_388_534_400_000  // 2014-01-01
        case .korbit: 1_372_636_800_000  // 2013-07-01
        case .coinone: 1_420_070_400_000  // 2015-01-01
        }
    }

    /// Walks `source`'s history up to now and keeps its trades for `owner`: from the newest trade
    /// a sync kept before (`resume`), else from `since` (default: the exchange's first day).
    public func sync(
        owner: String,
        source: any AccountHistorySource,
        since: Int64? = nil,
        resume: Bool = true,
        progress: @Sendable @escaping (AccountHistoryWalk.Progress) -> Void = { _ in }
    ) async throws -> Outcome {
        let exchange = source.exchange
        let started = ContinuousClock.now
        let callsBefore = source.calls
        var from = since ?? Self.opened(exchange)
        if resume, let newest = try await portfolio.newestSynced(owner: owner, exchange: exchange) { from = max(from, newest) }
        let until = clock.now
        let counts = SyncCounts()
        let portfolio = portfolio
        let orders = try await AccountHistoryWalk(source: source).walk(
            since: from,
            until: until,
            keep: { trades in
                let kept = try await portfolio.sync(owner: owner, trades.compactMap { $0.transaction(owner: owner) })
                counts.add(kept.added, kept.kept)
            },
            progress: progress
        )
        let elapsed = started.duration(to: .now)
        let (added, kept) = counts.value
        let calls = source.calls - callsBefore
        return Outcome(
            exchange: exchange,
            since: from,
            until: until,
            orders: orders,
            added: added,
            kept: kept,
            calls: calls,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            boundSeconds: Double(calls) / Double(PrivateRateLimits.perSecond(exchange))
        )
    }
}

/// Added and already-kept counts across a walk's batches.
private final class SyncCounts: Sendable {
    private let counts = Mutex((added: 0, kept: 0))
    var value: (Int, Int) { counts.withLock { ($0.added, $0.kept) } }
    func add(_ added: Int, _ kept: Int) { counts.withLock { $0 = ($0.added + added, $0.kept + kept) } }
}
