import SiseCore
import Synchronization

/// The views a browser asks for, applied at most every `interval`, the newest winning: a burst
/// of changes costs one snapshot, not one each. They are applied by a task that exists only while
/// a view is waiting or was just applied, so an idle page keeps no task — and no task stack, a
/// few KB a page — for them.
final class ViewPacer: Sendable {
    typealias View = (ViewParameters, Language)

    private struct State {
        var pending: View?
        /// Applying views, or waiting out the interval after one.
        var task: Task<Void, Never>?
        var running = false
        var closed = false
    }

    private let state = Mutex(State())
    private let interval: Duration
    private let apply: @Sendable (View) async -> Void
    private let census: PageCensus?
    private let clock: any MonotonicClock

    init(interval: Duration, clock: any MonotonicClock = .system, census: PageCensus? = nil, apply: @escaping @Sendable (View) async -> Void) {
        self.interval = interval
        self.clock = clock
        self.apply = apply
        self.census = census
        census?.made(.pacer)
    }

    deinit { census?.freed(.pacer) }

    /// Notes the newest view; a task applies it now, or when the interval since the last ends.
    func post(_ view: View) {
        state.withLock { state in
            guard !state.closed else { return }
            state.pending = view
            guard !state.running else { return }
            state.running = true
            state.task = Task { await self.drain() }
        }
    }

    /// No view is applied after this returns: the one being applied, if any, has finished.
    func close() async {
        let task = state.withLock { state in
            state.closed = true
            state.pending = nil
            return state.task
        }
        task?.cancel()
        await task?.value
    }

    /// No task is kept for this page's views (none waiting, none just applied).
    var isIdle: Bool { state.withLock { !$0.running } }

    private func drain() async {
        while let view = take() {
            await apply(view)
            try? await clock.sleep(for: interval)
        }
    }

    /// The waiting view; nil (and the task ends) when there is none or the page has gone.
    private func take() -> View? {
        state.withLock { state in
            guard !state.closed, !Task.isCancelled, let view = state.pending else {
                state.running = false
                state.task = nil
                return nil
            }
            state.pending = nil
            return view
        }
    }
}
