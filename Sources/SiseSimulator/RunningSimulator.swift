import Foundation
import Hummingbird
import ServiceLifecycle

/// A simulator started in this process (for `--demo` and tests): its URL, and `stop()`.
public final class RunningSimulator: Sendable {
    public let port: Int
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    private let task: Task<Void, any Error>

    private init(port: Int, task: Task<Void, any Error>) {
        self.port = port
        self.task = task
    }

    /// Starts a simulator and returns once it is accepting connections.
    public static func start(_ configuration: SimulatorConfiguration = SimulatorConfiguration()) async throws -> RunningSimulator {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = SimulatorServer(configuration: configuration).makeApplication { port in
            continuation.yield(port)
            continuation.finish()
        }
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            _ = await task.result
            throw SimulatorStartError()
        }
        return RunningSimulator(port: port, task: task)
    }

    /// Stops the server and waits until the port is closed.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }
}

/// In a service group (`--demo`): already listening when the group starts (the feeds need its
/// port first), stopped when the group shuts down — after the feeds, which come later in it.
extension RunningSimulator: Service {
    public func run() async throws {
        try? await gracefulShutdown()
        await stop()
    }
}

public struct SimulatorStartError: Error, CustomStringConvertible {
    public var description: String { "the simulator could not start" }
}
