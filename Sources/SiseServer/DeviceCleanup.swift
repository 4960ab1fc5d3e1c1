import Foundation
import Logging
import ServiceLifecycle
import SiseCore
import SiseStore
import Synchronization

/// Anonymous devices: when each was last seen (written at most once a day per device), and a
/// daily sweep that removes devices idle for `idleFor` with everything they own.
final class DeviceCleanup: Service, Sendable {
    let registry: DeviceRegistry
    let idleFor: Duration
    let logger: Logger
    private let touched = Mutex<[String: Int64]>([:])
    static let touchEvery: Int64 = 86_400_000

    init(registry: DeviceRegistry, idleFor: Duration = .seconds(180 * 86_400), logger: Logger) {
        self.registry = registry
        self.idleFor = idleFor
        self.logger = logger
    }

    /// A request from `owner` arrived: note it (a database write at most once a day).
    func seen(_ owner: String, at now: Int64 = WallClock.system.now) async {
        let due = touched.withLock { touched -> Bool in
            if let last = touched[owner], now - last < Self.touchEvery { return false }
            if touched.count > 100_000 { touched.removeAll() }
            touched[owner] = now
            return true
        }
        if due { try? await registry.touch(owner, at: now) }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.sweep()
                try? await Task.sleep(for: .seconds(86_400))
            }
        }
    }

    func sweep(now: Int64 = WallClock.system.now) async {
        let cutoff = now - idleFor.components.seconds * 1_000
        if let removed = try? await registry.purgeIdle(seenBefore: cutoff), removed > 0 {
            logger.info("removed idle anonymous devices", metadata: ["count": "\(removed)"])
        }
    }
}
