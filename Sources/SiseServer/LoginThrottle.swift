import Foundation

/// Failed log-ins per account and per address, with growing waits: after 5 failures a wait of
/// 1 s, doubling with each further failure up to 15 minutes; a success clears the account's
/// count. Sign-ups: at most 5 per address an hour.
actor LoginThrottle {
    private var failures: [String: (count: Int, last: ContinuousClock.Instant)] = [:]
    private var signups: [String: [ContinuousClock.Instant]] = [:]
    static let freeFailures = 5
    static let longestWait = 900
    static let signupsPerHour = 5

    /// Seconds to wait before `keys` may try again; 0 when they may now.
    func wait(_ keys: [String], now: ContinuousClock.Instant = .now) -> Int {
        keys.map { key in
            guard let entry = failures[key], entry.count >= Self.freeFailures else { return 0 }
            let delay = min(1 << min(entry.count - Self.freeFailures, 20), Self.longestWait)
            let left = entry.last.advanced(by: .seconds(delay)) - now
            return left > .zero ? Int(left.components.seconds) + 1 : 0
        }.max() ?? 0
    }

    func failed(_ keys: [String], now: ContinuousClock.Instant = .now) {
        for key in keys { failures[key] = ((failures[key]?.count ?? 0) + 1, now) }
        if failures.count > 50_000 { failures = failures.filter { now - $0.value.last < .seconds(Self.longestWait) } }
    }

    func succeeded(_ key: String) {
        failures[key] = nil
    }

    /// Takes a sign-up slot for `address`; the seconds to wait when there is none.
    func signup(_ address: String, now: ContinuousClock.Instant = .now) -> Int {
        var recent = signups[address, default: []].filter { now - $0 < .seconds(3_600) }
        if recent.count >= Self.signupsPerHour, let first = recent.first {
            return Int((first.advanced(by: .seconds(3_600)) - now).components.seconds) + 1
        }
        recent.append(now)
        signups[address] = recent
        return 0
    }
}
