import Foundation

/// Upbit's `Remaining-Req: group=ticker; min=600; sec=9` header. `min` is deprecated and ignored.
public struct RemainingRequests: Sendable, Equatable {
    public var group: RateLimitGroup
    /// Requests left in the current second for this group.
    public var perSecond: Int

    public init(group: RateLimitGroup, perSecond: Int) {
        self.group = group
        self.perSecond = perSecond
    }

    public init?(header: String) {
        var group: String?
        var sec: Int?
        for field in header.split(separator: ";") {
            let pair = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "group": group = pair[1]
            case "sec": sec = Int(pair[1])
            default: break
            }
        }
        guard let group, !group.isEmpty, let sec else { return nil }
        self.init(group: RateLimitGroup(rawValue: group), perSecond: sec)
    }
}
