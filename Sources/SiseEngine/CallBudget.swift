import Foundation

/// A sliding one-minute budget of upstream calls (CoinGecko's free tier: keep it at 10 a
/// minute whatever the number of viewers).
struct CallBudget: Sendable {
    let perMinute: Int
    private var calls: [Int64] = []

    init(perMinute: Int) {
        self.perMinute = max(1, perMinute)
    }

    /// Takes a call at `now` (ms) if the budget allows; otherwise says when one frees up.
    /// - Parameter limit: the share of the budget this call may use (a part stays reserved
    ///   for lookups every viewer shares).
    mutating func take(at now: Int64, limit: Int? = nil) -> (granted: Bool, nextAt: Int64) {
        calls.removeAll { $0 <= now - 60_000 }
        let cap = min(perMinute, max(1, limit ?? perMinute))
        guard calls.count < cap else { return (false, (calls.first ?? now) + 60_000) }
        calls.append(now)
        return (true, now)
    }

    /// Calls taken in the minute before `now`.
    func used(at now: Int64) -> Int {
        calls.count { $0 > now - 60_000 }
    }

    /// When the next call may go, without taking it.
    func nextFree(at now: Int64) -> Int64 {
        let recent = calls.filter { $0 > now - 60_000 }
        return recent.count < perMinute ? now : recent[recent.count - perMinute] + 60_000
    }
}
