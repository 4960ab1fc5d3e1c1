import Synchronization

/// What a page's message asks of the hub that may take a while (a 호가 watch reads its first book
/// over REST; a portfolio watch values the owner's positions), run in arrival order by a task that
/// exists only while errands wait — so the connection's own task keeps reading, and counts each
/// message when it arrives rather than when the hub gets round to it. Errands of one kind are
/// newest-wins: only the latest 호가 watch, or portfolio switch, is still worth running.
final class PageErrands: Sendable {
    enum Kind: Hashable, Sendable {
        case depth, portfolio
    }

    private struct State {
        var waiting: [(kind: Kind, run: @Sendable () async -> Void)] = []
        var task: Task<Void, Never>?
        var closed = false
    }

    private let state = Mutex(State())

    /// Queues `errand`, replacing a waiting one of the same kind; a task runs the queue.
    func post(_ kind: Kind, _ errand: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.closed else { return }
            if let index = state.waiting.firstIndex(where: { $0.kind == kind }) {
                state.waiting.remove(at: index)
            }
            state.waiting.append((kind, errand))
            guard state.task == nil else { return }
            state.task = Task { await self.drain() }
        }
    }

    /// No errand runs after this returns: the one running, if any, is cancelled and has finished.
    func close() async {
        let task = state.withLock { state in
            state.closed = true
            state.waiting = []
            return state.task
        }
        task?.cancel()
        await task?.value
    }

    /// No task is kept for this page (nothing waiting or running).
    var isIdle: Bool { state.withLock { $0.task == nil } }

    private func drain() async {
        while let errand = take() { await errand() }
    }

    private func take() -> (@Sendable () async -> Void)? {
        state.withLock { state in
            guard !state.closed, !state.waiting.isEmpty else {
                state.task = nil
                return nil
            }
            return state.waiting.removeFirst().run
        }
    }
}
