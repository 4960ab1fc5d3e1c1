import Foundation
import Synchronization

/// Authorization requests on their way through a provider, by `state`: what the callback needs
/// (the PKCE verifier, the nonce) and what it must match (the provider, the account being linked
/// to). Each is used once and lives ten minutes; at most `capacity` wait (the oldest go first).
final class PendingLogins: Sendable {
    struct Pending: Sendable {
        let provider: String
        let verifier: String
        let nonce: String
        /// Linking from the profile page: the account that asked.
        let linkTo: String?
        let createdAt: ContinuousClock.Instant
    }

    static let lifetime = Duration.seconds(600)
    let capacity: Int
    private let entries = Mutex<[String: Pending]>([:])

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    func add(_ pending: Pending, state: String) {
        entries.withLock { entries in
            let now = ContinuousClock.now
            entries = entries.filter { $0.value.createdAt.duration(to: now) < Self.lifetime }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.createdAt < $1.value.createdAt })?.key {
                entries[oldest] = nil
            }
            entries[state] = pending
        }
    }

    /// Takes the request out (a second callback with the same `state` finds nothing).
    func take(_ state: String) -> Pending? {
        entries.withLock { entries in
            guard let pending = entries.removeValue(forKey: state),
                pending.createdAt.duration(to: .now) < Self.lifetime
            else { return nil }
            return pending
        }
    }
}
