import Foundation
import Synchronization

/// A sleep that can be cut short: `wait(upTo:)` returns early once `signal()` is called. A
/// signal that arrives while nobody waits is kept (one at most) for the next wait.
///
/// Built on continuations rather than an `AsyncStream`: cancelling a task that awaits an
/// `AsyncStream` finishes the stream for good, after which every wait returned at once — a
/// reconnect backoff that no longer waited and a resubscribe loop that spun.
public final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits for a signal; returns early (without one) when the task is cancelled.
    public func wait() async {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    if Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Waits for `duration` or a signal, whichever comes first. Throws on cancellation.
    public func wait(upTo duration: Duration) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Task.sleep(for: duration) }
            group.addTask { await self.wait() }
            try await group.next()
            group.cancelAll()
        }
        try Task.checkCancellation()
    }
}
