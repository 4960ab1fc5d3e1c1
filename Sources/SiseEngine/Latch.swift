import Foundation
import Synchronization

/// A gate that opens once and stays open: waiters wait until it opens or their time is up.
/// The board opens it when its first data lands, so a request that arrives a moment earlier
/// waits for real rows instead of being answered with an empty board.
public final class Latch: Sendable {
    private struct State {
        var open = false
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public var isOpen: Bool { state.withLock { $0.open } }

    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// True once open; false when `timeout` passed (or the task was cancelled) first.
    public func wait(upTo timeout: Duration) async -> Bool {
        if isOpen { return true }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitOpen() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return isOpen
    }

    private func waitOpen() async {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.open || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
