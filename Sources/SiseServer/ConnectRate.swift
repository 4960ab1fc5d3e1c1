import Foundation
import Synchronization

/// New `/ws` connections per client (its address and its device, each on its own): a burst,
/// then a steady rate — a token bucket per identity. A page that reconnects after a network
/// change is never refused; a script reconnecting in a loop gets one connection per interval.
/// The buckets themselves are bounded: one that has refilled is the same as none and is swept.
final class ConnectRate: Sendable {
    let burst: Int
    let perSecond: Double
    private struct Bucket {
        var tokens: Double
        var at: ContinuousClock.Instant
    }
    private struct State {
        var buckets: [String: Bucket] = [:]
        /// Buckets kept after the last sweep; the next sweep comes when they have doubled.
        var swept = 0
    }
    private let state = Mutex(State())

    /// - Parameters:
    ///   - burst: connections admitted at once from a full bucket (0 turns the limit off).
    ///   - perSecond: the steady rate the bucket refills at.
    init(burst: Int, perSecond: Double) {
        self.burst = burst
        self.perSecond = perSecond
    }

    var isOn: Bool { burst > 0 && perSecond > 0 }

    /// Takes a connection for every identity, or none: nil when admitted, else how long until
    /// all of them have one again.
    func take(_ identities: some Collection<String>, at now: ContinuousClock.Instant) -> Duration? {
        guard isOn, !identities.isEmpty else { return nil }
        return state.withLock { state in
            var refilled: [(String, Bucket)] = []
            var wait = Duration.zero
            for identity in identities {
                var bucket = state.buckets[identity] ?? Bucket(tokens: Double(burst), at: now)
                bucket.tokens = min(Double(burst), bucket.tokens + perSecond * Self.seconds(bucket.at, now))
                bucket.at = now
                if bucket.tokens < 1 { wait = max(wait, .seconds((1 - bucket.tokens) / perSecond)) }
                refilled.append((identity, bucket))
            }
            for (identity, var bucket) in refilled {
                if wait == .zero { bucket.tokens -= 1 }
                state.buckets[identity] = bucket
            }
            if state.buckets.count > max(1_024, 2 * state.swept) { sweep(&state, now) }
            return wait == .zero ? nil : wait
        }
    }

    /// Identities with a bucket (full ones are forgotten as buckets grow).
    var tracked: Int { state.withLock { $0.buckets.count } }

    private func sweep(_ state: inout State, _ now: ContinuousClock.Instant) {
        let full = Double(burst)
        state.buckets = state.buckets.filter { $0.value.tokens + perSecond * Self.seconds($0.value.at, now) < full }
        state.swept = state.buckets.count
    }

    private static func seconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Double {
        let elapsed = from.duration(to: to)
        return max(0, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
