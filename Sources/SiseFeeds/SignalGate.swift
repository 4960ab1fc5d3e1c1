import Foundation
import SiseCore
import Synchronization

/// The one waiting primitive under `Wakeup` and the engine's `Latch`: a flag, and tasks
/// suspended until it is set. A consuming gate hands the flag to one wait (a signal that came
/// while nobody waited is kept for the next wait); a lasting gate stays set. Cancelling a
/// waiting task resumes it at once. Built on continuations rather than an `AsyncStream`, whose
/// cancellation ends the stream for every later waiter.
public final class SignalGate: Sendable {
    private struct State {
        var flag = false
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())
    private let consumes: Bool

    public init(consumes: Bool) {
        self.consumes = consumes
    }

    public var isSet: Bool { state.withLock { $0.flag } }

    /// Tasks waiting now: what a test waits for before it signals, instead of sleeping.
    public var waiters: Int { state.withLock { $0.waiters.count } }

    /// Sets the flag and wakes every waiter. A consuming gate keeps the flag only when nobody
    /// was waiting.
    public func set() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.waiters.removeAll() }
            state.flag = !consumes || state.waiters.isEmpty
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the flag is set (taking it, for a consuming gate) or the task is cancelled.
    public func wait() async {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.flag {
                        if consumes { state.flag = false }
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

    /// Waits for the flag or `duration` on `clock`, whichever comes first. Throws on cancellation.
    public func wait(upTo duration: Duration, on clock: any MonotonicClock = .system) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await clock.sleep(for: duration) }
            group.addTask { await self.wait() }
            try await group.next()
            group.cancelAll()
        }
        try Task.checkCancellation()
    }
}
