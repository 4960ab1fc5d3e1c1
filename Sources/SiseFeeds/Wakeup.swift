import Foundation

/// A sleep that can be cut short: `wait(upTo:)` returns early once `signal()` is called.
final class Wakeup: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func signal() { continuation.yield() }

    /// Waits for `duration` or a signal, whichever comes first. Throws on cancellation.
    func wait(upTo duration: Duration) async throws {
        let stream = self.stream
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await Task.sleep(for: duration) }
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                _ = await iterator.next()
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
