import Foundation
import SiseCore
import Synchronization

/// Time that moves only when the test says so: sleepers wake when `advance` carries the clock
/// past their deadline (or when they are cancelled), and `wall` (the time of day) moves with it.
public final class ManualClock: MonotonicClock {
    private struct Sleeper {
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var offset = Duration.zero
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        var sleeps = 0
    }

    private let base = ContinuousClock.now
    private let state = Mutex(State())

    private let epoch: Int64

    /// - Parameter epoch: the time of day at the start, in epoch ms.
    public init(epoch: Int64 = 1_795_305_225_000) {
        self.epoch = epoch
    }

    /// The time of day, moving as `advance` moves the clock.
    public var wall: WallClock {
        WallClock { [self] in
            let (seconds, attoseconds) = elapsed.components
            return epoch + seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        }
    }

    public var now: ContinuousClock.Instant { base.advanced(by: state.withLock { $0.offset }) }

    /// How far the test has moved the clock.
    public var elapsed: Duration { state.withLock { $0.offset } }

    /// Sleeps begun so far: a loop that sleeps again has finished what it did after waking, so
    /// a test waits for this to grow instead of sleeping for real.
    public var sleeps: Int { state.withLock { $0.sleeps } }

    /// Tasks asleep on this clock now.
    public var sleepers: Int { state.withLock { $0.sleepers.count } }

    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.offset += duration
            let offset = state.offset
            let ready = state.sleepers.filter { $0.value.deadline <= offset }
            for id in ready.keys { state.sleepers[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    public func sleep(for duration: Duration) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            state.sleeps += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    let deadline = state.offset + duration
                    if deadline <= state.offset { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
