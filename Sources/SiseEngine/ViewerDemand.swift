import Foundation
import SiseCore
import SiseFeeds
import Synchronization

/// Who watches a board — its open live views, and when a viewer was last seen — and the idle
/// rule read from it: the feed runs while anyone watches or someone looked within `idleAfter`.
/// Touched from the faces' threads, so behind a lock rather than the board's actor.
final class ViewerDemand: Sendable {
    private struct State {
        var viewers = 0
        var lastSeen: Int64
    }

    private let state: Mutex<State>
    private let wakeup = Wakeup()
    private let now: @Sendable () -> Int64
    private let clock: any MonotonicClock

    /// `neverSeen`: a board that starts idle has never been watched; its grace is long over.
    init(neverSeen: Bool, now: @escaping @Sendable () -> Int64, clock: any MonotonicClock) {
        self.now = now
        self.clock = clock
        state = Mutex(State(lastSeen: neverSeen ? Int64.min / 2 : now()))
    }

    func arrived() {
        state.withLock {
            $0.viewers += 1
            $0.lastSeen = now()
        }
        wakeup.signal()
    }

    func left() {
        state.withLock {
            $0.viewers = max(0, $0.viewers - 1)
            $0.lastSeen = now()
        }
    }

    /// A one-shot look: keeps the feed awake, wakes it if idle.
    func touch() {
        state.withLock { $0.lastSeen = now() }
        wakeup.signal()
    }

    func watched(within limit: Duration) -> Bool {
        let limitMs = limit.components.seconds * 1_000 + limit.components.attoseconds / 1_000_000_000_000_000
        return state.withLock { $0.viewers > 0 || now() - $0.lastSeen < limitMs }
    }

    /// Returns once nobody has watched for `idleAfter` (or the task is cancelled).
    func untilNobodyWatches(for idleAfter: Duration) async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: min(idleAfter / 4, .seconds(1))) } catch { return }
            if !watched(within: idleAfter) { return }
        }
    }

    /// Returns once someone watches again (or the task is cancelled).
    func untilSomeoneWatches(within idleAfter: Duration) async {
        while !Task.isCancelled && !watched(within: idleAfter) {
            await wakeup.wait()
        }
    }
}
