import ServiceLifecycle

/// A service a test runs for a while and then stops (cancelling its `run()` and waiting for
/// it), where a ServiceGroup would be more ceremony than the test needs.
public final class ServiceTask: Sendable {
    private let task: Task<Void, Never>

    public init(_ service: any Service) {
        task = Task { try? await service.run() }
    }

    public func stop() async {
        task.cancel()
        await task.value
    }
}
