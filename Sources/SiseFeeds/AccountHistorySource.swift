import Foundation
import SiseCore
import Synchronization

/// An exchange account's closed orders, read a window at a time: Upbit and Bithumb answer at
/// most a page of orders made within a window of at most `longestWindow` (ms), oldest first as
/// Sise asks — an order past the page is left out without a word, so a full page means the
/// window must be read again from its newest order (`AccountHistoryWalk` does).
public protocol AccountHistorySource: AccountSource {
    var longestWindow: Int64 { get }
    /// The orders made in `[from, to]` (epoch ms), oldest first.
    func closedOrders(from: Int64, to: Int64) async throws -> ClosedOrdersPage
    /// Calls made so far (each answered, or refused).
    var calls: Int { get }
}

/// One answer of an exchange's closed orders.
public struct ClosedOrdersPage: Sendable, Equatable {
    /// The orders that filled something, as trades.
    public var trades: [ExchangeTrade]
    /// Fewer rows than the page holds: nothing of the window was left out.
    public var complete: Bool
    /// The newest row's time (filled or not), epoch ms; nil for an empty page.
    public var newest: Int64?

    public init(trades: [ExchangeTrade], complete: Bool, newest: Int64?) {
        self.trades = trades
        self.complete = complete
        self.newest = newest
    }
}

/// Calls a client made, counted across its copies.
final class CallCounter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}

/// Each exchange's private request budget, shared by every account the process reads on it:
/// Upbit counts per key ("pocket", 30 a second), Bithumb per IP address (140 a second for all
/// of its keys), Korbit per account (50), Coinone per portfolio (80). One limiter per budget, so
/// two people's syncs on one server share it instead of each spending all of it.
public enum PrivateRateLimits {
    private static let limiters = Mutex<[String: RateLimiter]>([:])

    /// Requests a second the exchange allows a budget.
    public static func perSecond(_ exchange: Exchange) -> Int {
        switch exchange {
        case .upbit: 30
        case .bithumb: 140
        case .korbit: 50
        case .coinone: 80
        }
    }

    /// The limiter of the budget `access` spends on `exchange`.
    public static func limiter(_ exchange: Exchange, access: String) -> RateLimiter {
        let budget = exchange == .bithumb ? exchange.rawValue : exchange.rawValue + "\u{1F}" + access
        return limiters.withLock { all in
            if let limiter = all[budget] { return limiter }
            let limiter = RateLimiter(limit: perSecond(exchange), window: .milliseconds(1_020))
            all[budget] = limiter
            return limiter
        }
    }
}
