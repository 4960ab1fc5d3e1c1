import ServiceLifecycle

/// Runs `action` when the service group shuts down: the composition root closes what it opened
/// (HTTP connection pools) in the group's reverse order, after the services that used them.
public struct ShutdownHook: Service {
    let action: @Sendable () async -> Void

    public init(_ action: @escaping @Sendable () async -> Void) {
        self.action = action
    }

    public func run() async throws {
        try? await gracefulShutdown()
        await action()
    }
}
