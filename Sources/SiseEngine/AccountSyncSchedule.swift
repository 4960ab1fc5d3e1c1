import Foundation
import Logging
import ServiceLifecycle
import SiseCore

/// The server's scheduled history syncs: every `every`, one round of `AccountSyncJobs` — each
/// owner with a kept key in turn, within each exchange's private budget, a key refused for a
/// reason the person must fix left out until they fix it (the key's list says what to do).
public struct AccountSyncSchedule: Service {
    private let jobs: AccountSyncJobs
    private let every: Duration
    private let pace: any MonotonicClock
    private let logger: Logger

    public init(jobs: AccountSyncJobs, every: Duration, pace: any MonotonicClock = .system, logger: Logger) {
        self.jobs = jobs
        self.every = every
        self.pace = pace
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await self.pace.sleep(for: self.every) } catch { return }
                do {
                    let owners = try await self.jobs.scheduledRound()
                    self.logger.info("account sync: scheduled round", metadata: ["owners": "\(owners)"])
                } catch is CancellationError {
                    return
                } catch {
                    self.logger.warning("account sync: the scheduled round stopped", metadata: ["error": "\(type(of: error))"])
                }
            }
        }
    }
}
