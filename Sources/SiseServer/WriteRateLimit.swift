import Foundation
import Synchronization

/// Writes per client address per minute (favorites today): one address cannot fill the
/// database with invented devices and ids. 0 turns it off.
final class WriteRateLimit: Sendable {
    let perMinute: Int
    private let arrivals = Mutex<[String: [ContinuousClock.Instant]]>([:])

    init(perMinute: Int) {
        self.perMinute = perMinute
    }

    /// Takes one write for `address`; the seconds to wait when it is over the limit.
    func take(_ address: String?, at now: ContinuousClock.Instant = .now) -> Int? {
        guard perMinute > 0, let address else { return nil }
        return arrivals.withLock { all in
            var list = all[address, default: []]
            list.removeAll { $0.duration(to: now) >= .seconds(60) }
            if list.count >= perMinute, let first = list.first {
                all[address] = list
                return max(1, Int((Duration.seconds(60) - first.duration(to: now)).components.seconds) + 1)
            }
            list.append(now)
            all[address] = list
            if all.count > 50_000 { all = all.filter { $0.value.last.map { $0.duration(to: now) < .seconds(60) } ?? false } }
            return nil
        }
    }
}
