import Synchronization

/// The one answer of an upstream call that several requests wait for: the first caller starts
/// the call, everyone who asks the same thing meanwhile waits on this, and all get one result.
final class SharedCall<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiters: [CheckedContinuation<Value, any Error>] = []
    }

    private let state = Mutex(State())

    /// The result, once `complete` has been called. A waiter that is cancelled keeps waiting
    /// for the shared answer: the call it shares runs to its end either way.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Hands `result` to every waiter, present and future. Only the first completion counts.
    func complete(_ result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard state.result == nil else { return [] }
            state.result = result
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}
