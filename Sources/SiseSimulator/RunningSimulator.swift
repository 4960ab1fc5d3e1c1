import Foundation
import Hummingbird
import ServiceLifecycle

/// A simulator started in this process (for `--demo` and tests): its URL, and `stop()`.
public final class RunningSimulator: Sendable {
    public let port: Int
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Starts a simulator and returns once it is accepting connections.
    public static func start(_ configuration: SimulatorConfiguration = SimulatorConfiguration()) async throws -> RunningSimulator {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = SimulatorServer(configuration: configuration).makeApplication { port in
            continuation.yield(port)
            continuation.finish()
        }
        // In a group of its own, so that it can be asked to end gracefully: the server quiesces,
        // which closes its idle connections and those that never began a request
        // (`SimServerChannel`). Cancelled, it waited for ever on one of those, and the demo's
        // process with it.
        let group = ServiceGroup(configuration: .init(services: [app], logger: app.logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            _ = await task.result
            throw SimulatorStartError()
        }
        return RunningSimulator(port: port, group: group, task: task)
    }

    /// Stops the server and waits until the port is closed: idle connections are closed at once,
    /// answers under way may finish for `grace`, and whatever is left then (an answer held by the
    /// `hang` fault) is cancelled.
    public func stop(grace: Duration = .seconds(2)) async {
        await group.triggerGracefulShutdown()
        let task = self.task
        let deadline = Task {
            try await Task.sleep(for: grace)
            task.cancel()
        }
        _ = await task.result
        deadline.cancel()
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
