import Foundation
import SiseCore
import Synchronization

/// Ticks the stream read since the last flush, with the time each arrived. The reading task
/// appends under a lock and goes back to the socket without waiting for the board's actor (one
/// actor hop per frame cost more than decoding it); the actor takes them at the next flush, which
/// is when anyone could see them anyway. Only a live board's ticks wait here: before that, a tick
/// goes to the actor at once so the move to live is not held back by a flush.
final class TickInbox: Sendable {
    private let waiting = Mutex<[(ticker: Ticker, at: Int64)]>([])
    private let live = Atomic<Bool>(false)

    /// Whether ticks may wait (the board is live).
    func deliver(live isLive: Bool) {
        live.store(isLive, ordering: .releasing)
    }

    /// On the stream's socket thread: true when the tick now waits here, false when the board
    /// is not live and the actor must take it at once.
    func accept(_ ticker: Ticker, at: Int64) -> Bool {
        guard live.load(ordering: .acquiring) else { return false }
        waiting.withLock { $0.append((ticker, at)) }
        return true
    }

    /// Everything waiting, in the order it came; the inbox is empty after.
    func take() -> [(ticker: Ticker, at: Int64)] {
        var pending: [(ticker: Ticker, at: Int64)] = []
        waiting.withLock { swap(&pending, &$0) }
        return pending
    }

    func clear() {
        waiting.withLock { $0.removeAll() }
    }
}
