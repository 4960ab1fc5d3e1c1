import Foundation

/// Upbit's REST limits as the simulator enforces them: at most `limit` requests per second per
/// group (sliding window); beyond it 429; a client that keeps hammering through 429s is banned
/// with 418 for a time that doubles with each offence.
struct SimRateLimit: Sendable {
    enum Decision: Equatable {
        case allowed(remaining: Int)
        case limited
        case banned(retryAfter: Int)
    }

    var limit = 10
    /// Groups with their own rule: requests carrying `Origin` (1 per 10 s) and WebSocket
    /// connects (5 per second per client address; the group is `websocket-connect@IP`).
    static let special: [String: (limit: Int, window: Double)] = [
        "origin": (1, 10),
        "websocket-connect": (5, 1),
    ]

    static func rule(_ group: String, default limit: Int) -> (limit: Int, window: Double) {
        let base = group.split(separator: "@", maxSplits: 1).first.map(String.init) ?? group
        return special[base] ?? (limit, 1)
    }
    /// 429s within 10 s that earn a ban.
    var abuseThreshold = 20
    var baseBanSeconds = 30
    private var accepted: [String: [Double]] = [:]
    private var arrivals: [String: [Double]] = [:]
    private var refusals: [String: [Double]] = [:]
    private var bannedUntil: [String: Double] = [:]
    private var offences: [String: Int] = [:]
    /// Most requests seen in any one-second window, per group (admitted or not).
    private(set) var peak: [String: Int] = [:]

    mutating func admit(_ group: String, at now: Double, enforce: Bool) -> Decision {
        let (limit, window) = Self.rule(group, default: self.limit)
        arrivals[group, default: []].removeAll { $0 <= now - 1 }
        arrivals[group, default: []].append(now)
        peak[group] = max(peak[group] ?? 0, arrivals[group]!.count)
        accepted[group, default: []].removeAll { $0 <= now - window }
        guard enforce else {
            accepted[group]!.append(now)
            return .allowed(remaining: max(0, limit - accepted[group]!.count))
        }
        if let until = bannedUntil[group], until > now {
            return .banned(retryAfter: Int((until - now).rounded(.up)))
        }
        if accepted[group]!.count >= limit {
            refusals[group, default: []].removeAll { $0 <= now - 10 }
            refusals[group, default: []].append(now)
            if refusals[group]!.count >= abuseThreshold {
                let ban = baseBanSeconds << min(offences[group] ?? 0, 6)
                offences[group, default: 0] += 1
                bannedUntil[group] = now + Double(ban)
                refusals[group] = []
                return .banned(retryAfter: ban)
            }
            return .limited
        }
        accepted[group]!.append(now)
        return .allowed(remaining: max(0, limit - accepted[group]!.count))
    }

    /// Bans `group` now, as continued abuse would (the `failNext` 418 switch uses it).
    mutating func ban(_ group: String, seconds: Int, at now: Double) {
        bannedUntil[group] = now + Double(seconds)
    }
}
