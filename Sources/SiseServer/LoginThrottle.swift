import Foundation

/// How many failed log-ins each party may make before it waits, and the waits: OWASP's
/// device-cookie scheme with progressive delays.
///
/// - A **returning device** (a valid `LoginDeviceCookie` entry for the account) has its own
///   budget: 5 failures, then a wait of 1 s doubling with each further failure up to 15
///   minutes. Nothing anyone else does delays it.
/// - **Untrusted attempts** (no such entry) share the account's budget (same numbers), and the
///   budget of the address they come from, sized for a carrier-grade NAT where many phones share
///   one address: 100 failures an hour before its waits begin. A stranger can therefore only shut
///   out other untrusted attempts on that account — never its owner's browser.
/// - A count is forgotten an hour after its last failure; a success clears the device's (or, from
///   an untrusted browser, the account's) count.
///
/// Sign-ups: an address may sign up 30 accounts at once and one more every 2 minutes (a carrier
/// NAT's many people a day; a script's burst stops at 30), and one browser 3 a day.
///
/// Memory stays bounded under a flood of made-up logins and addresses: each table keeps at most
/// `capacity` keys, the least recently failed go first.
actor LoginThrottle {
    /// One budget: failures since the count began, and when the last one was.
    private struct Count {
        var failures: Int
        var last: ContinuousClock.Instant
    }

    /// A party whose failures are counted.
    enum Party: Hashable, Sendable {
        case device(String)
        case account(String)
        case address(String)

        var freeFailures: Int {
            switch self {
            case .device, .account: 5
            case .address: 100
            }
        }
    }

    static let longestWait = 900
    static let forgetAfter = Duration.seconds(3_600)
    static let signupBurst = 30
    static let signupRefill = Duration.seconds(120)
    static let signupsPerDevicePerDay = 3

    private let capacity: Int
    private var counts: [Party: Count] = [:]
    private var addressSignups: [String: (tokens: Double, at: ContinuousClock.Instant)] = [:]
    private var deviceSignups: [String: [ContinuousClock.Instant]] = [:]

    init(capacity: Int = 100_000) {
        self.capacity = capacity
    }

    /// Keys counted, for tests and metrics.
    var keptKeys: Int { counts.count + addressSignups.count + deviceSignups.count }

    /// The parties an attempt on `account` (or a made-up login) counts against.
    static func parties(device: String?, account: String, address: String) -> [Party] {
        if let device { return [.device(device)] }
        return [.account(account), .address(address)]
    }

    /// Seconds to wait before `parties` may try again; 0 when they may now.
    func wait(_ parties: [Party], now: ContinuousClock.Instant = .now) -> Int {
        parties.map { party in
            guard let count = counts[party], now - count.last < Self.forgetAfter, count.failures >= party.freeFailures else { return 0 }
            let delay = min(1 << min(count.failures - party.freeFailures, 20), Self.longestWait)
            let left = count.last.advanced(by: .seconds(delay)) - now
            return left > .zero ? Int(left.seconds.rounded(.up)) : 0
        }.max() ?? 0
    }

    /// Takes one attempt for `parties` before the password is checked: the seconds to wait when
    /// they may not try now; otherwise 0, with the attempt already counted as a failure — so
    /// attempts sent at once are counted as they arrive, not after their hashes (25 parallel
    /// wrong passwords used to pass a budget of 5). A success takes it back (`succeeded`).
    func attempt(_ parties: [Party], now: ContinuousClock.Instant = .now) -> Int {
        let wait = wait(parties, now: now)
        if wait == 0 { failed(parties, now: now) }
        return wait
    }

    func failed(_ parties: [Party], now: ContinuousClock.Instant = .now) {
        for party in parties {
            let fresh = counts[party].map { now - $0.last < Self.forgetAfter } ?? false
            counts[party] = Count(failures: fresh ? (counts[party]?.failures ?? 0) + 1 : 1, last: now)
        }
        if counts.count > capacity {
            counts = Self.trimmed(counts.filter { now - $0.value.last < Self.forgetAfter }, to: capacity) { $0.last }
        }
    }

    /// The attempt of `parties` succeeded: `cleared` (the returning device, or the account from an
    /// untrusted browser) starts over; the others (the address) get back the failure `attempt`
    /// counted in advance.
    func succeeded(_ parties: [Party], clearing cleared: Party) {
        for party in parties where party != cleared {
            guard let count = counts[party] else { continue }
            if count.failures > 1 { counts[party]?.failures -= 1 } else { counts[party] = nil }
        }
        counts[cleared] = nil
    }

    /// Takes a sign-up slot for `address` and `device`; the seconds to wait when either has none.
    func signup(address: String, device: String?, now: ContinuousClock.Instant = .now) -> Int {
        let perSecond = 1 / (Double(Self.signupRefill.components.seconds))
        let bucket = addressSignups[address].map { min(Double(Self.signupBurst), $0.tokens + (now - $0.at).seconds * perSecond) }
            ?? Double(Self.signupBurst)
        let recent = device.map { deviceSignups[$0, default: []].filter { now - $0 < .seconds(86_400) } } ?? []
        if bucket < 1 { return Int(((1 - bucket) / perSecond).rounded(.up)) }
        if recent.count >= Self.signupsPerDevicePerDay, let first = recent.first {
            return Int((first.advanced(by: .seconds(86_400)) - now).seconds.rounded(.up))
        }
        addressSignups[address] = (bucket - 1, now)
        if let device { deviceSignups[device] = recent + [now] }
        if addressSignups.count > capacity {
            addressSignups = Self.trimmed(addressSignups, to: capacity) { $0.at }
        }
        if deviceSignups.count > capacity {
            deviceSignups = Self.trimmed(deviceSignups.filter { $0.value.contains { now - $0 < .seconds(86_400) } }, to: capacity) {
                $0.last ?? now
            }
        }
        return 0
    }

    /// `table` cut to three quarters of `capacity` when over it, the least recent first out.
    private static func trimmed<Key, Value>(_ table: [Key: Value], to capacity: Int,
                                            by time: (Value) -> ContinuousClock.Instant) -> [Key: Value] {
        guard table.count > capacity else { return table }
        let kept = table.sorted { time($0.value) > time($1.value) }.prefix(capacity * 3 / 4)
        return Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }
}

private extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
