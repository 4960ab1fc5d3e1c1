import Foundation
import SiseCore
import SiseStore

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
/// - An attempt is counted as it arrives, before its password is checked (`attempt`), and a
///   success gives it back: attempts sent at once are all counted. A count is forgotten an hour
///   after its last failure; a success clears the device's (or, from an untrusted browser, the
///   account's) count.
///
/// Sign-ups: an address may sign up 30 accounts at once and one more every 2 minutes (a carrier
/// NAT's many people a day; a script's burst stops at 30), and one browser 3 a day.
///
/// The counts live in a `TallyBook`: this process's memory (bounded under a flood of made-up
/// logins and addresses), or the store replicas share — one budget behind any number of them.
/// Times are wall-clock milliseconds.
struct LoginThrottle: Sendable {
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

        var key: String {
            switch self {
            case .device(let nonce): "login:device:" + nonce
            case .account(let account): "login:account:" + account
            case .address(let address): "login:address:" + address
            }
        }
    }

    static let longestWait = 900
    static let forgetAfter: Int64 = 3_600_000
    static let signupBurst = 30
    static let signupRefillSeconds = 120.0
    static let signupsPerDevicePerDay = 3
    static let day: Int64 = 86_400_000

    private let book: any TallyBook

    init(book: any TallyBook) {
        self.book = book
    }

    /// Counts in this process, at most `capacity` keys.
    init(capacity: Int = 300_000) {
        self.init(book: MemoryTallies(capacity: capacity))
    }

    /// Keys counted, for tests and metrics.
    var keptKeys: Int { get async { await book.keptKeys() } }

    /// The parties an attempt on `account` (or a made-up login) counts against.
    static func parties(device: String?, account: String, address: String) -> [Party] {
        if let device { return [.device(device)] }
        return [.account(account), .address(address)]
    }

    /// Seconds to wait before `parties` may try again; 0 when they may now.
    func wait(_ parties: [Party], now: Int64) async -> Int {
        await book.update(parties.map(\.key), now: now) { tallies in Self.wait(parties, tallies, now: now) }
    }

    /// Takes one attempt for `parties` before the password is checked: the seconds to wait when
    /// they may not try now; otherwise 0, with the attempt already counted as a failure — so
    /// attempts sent at once are counted as they arrive, not after their hashes (25 parallel
    /// wrong passwords used to pass a budget of 5). A success takes it back (`succeeded`).
    func attempt(_ parties: [Party], now: Int64) async -> Int {
        await book.update(parties.map(\.key), now: now) { tallies in
            let wait = Self.wait(parties, tallies, now: now)
            if wait == 0 { Self.fail(parties, &tallies, now: now) }
            return wait
        }
    }

    func failed(_ parties: [Party], now: Int64) async {
        await book.update(parties.map(\.key), now: now) { tallies in Self.fail(parties, &tallies, now: now) }
    }

    /// The attempt of `parties` succeeded: `cleared` (the returning device, or the account from an
    /// untrusted browser) starts over; the others (the address) get back the failure `attempt`
    /// counted in advance.
    func succeeded(_ parties: [Party], clearing cleared: Party, now: Int64) async {
        await book.update((parties + [cleared]).map(\.key), now: now) { tallies in
            for party in parties where party != cleared {
                guard let tally = tallies[party.key] else { continue }
                tallies[party.key] = tally.count > 1 ? Tally(count: tally.count - 1, since: tally.since, last: tally.last) : nil
            }
            tallies[cleared.key] = nil
        }
    }

    /// Takes a sign-up slot for `address` and `device`; the seconds to wait when either has none.
    func signup(address: String, device: String?, now: Int64) async -> Int {
        let addressKey = "signup:address:" + address
        let deviceKey = device.map { "signup:device:" + $0 }
        return await book.update([addressKey] + (deviceKey.map { [$0] } ?? []), now: now) { tallies in
            let perSecond = 1 / Self.signupRefillSeconds
            let bucket =
                tallies[addressKey].map { min(Double(Self.signupBurst), $0.count + Double(now - $0.last) / 1_000 * perSecond) }
                ?? Double(Self.signupBurst)
            let recent = deviceKey.flatMap { tallies[$0] }.flatMap { now - $0.since < Self.day ? $0 : nil }
            if bucket < 1 { return Int(((1 - bucket) / perSecond).rounded(.up)) }
            if let recent, Int(recent.count) >= Self.signupsPerDevicePerDay {
                return Int((Double(recent.since + Self.day - now) / 1_000).rounded(.up))
            }
            tallies[addressKey] = Tally(count: bucket - 1, since: now, last: now)
            if let deviceKey { tallies[deviceKey] = Tally(count: (recent?.count ?? 0) + 1, since: recent?.since ?? now, last: now) }
            return 0
        }
    }

    private static func wait(_ parties: [Party], _ tallies: [String: Tally], now: Int64) -> Int {
        parties.map { party in
            guard let tally = tallies[party.key], now - tally.last < forgetAfter, Int(tally.count) >= party.freeFailures else { return 0 }
            let delay = min(1 << min(Int(tally.count) - party.freeFailures, 20), longestWait)
            let left = tally.last + Int64(delay) * 1_000 - now
            return left > 0 ? Int((Double(left) / 1_000).rounded(.up)) : 0
        }.max() ?? 0
    }

    private static func fail(_ parties: [Party], _ tallies: inout [String: Tally], now: Int64) {
        for party in parties {
            let fresh = tallies[party.key].map { now - $0.last < forgetAfter } ?? false
            tallies[party.key] = Tally(count: fresh ? (tallies[party.key]?.count ?? 0) + 1 : 1, since: tallies[party.key]?.since ?? now, last: now)
        }
    }
}
