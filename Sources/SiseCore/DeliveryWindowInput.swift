import Foundation

/// A destination's quiet hours and daily cap as people and scripts send them, checked once for
/// the API and the CLI: `{"quietStart":"23:00","quietEnd":"07:00","timeZone":"Asia/Seoul","dailyCap":20}`.
/// A key left out keeps its setting; `null` clears it (both quiet keys together).
public struct DeliveryWindowInput: Decodable, Sendable {
    /// nil: unchanged; `.some(nil)`: cleared.
    public var quietStart: String??
    public var quietEnd: String??
    public var timeZone: String?
    public var dailyCap: Int??

    public init(quietStart: String?? = nil, quietEnd: String?? = nil, timeZone: String? = nil, dailyCap: Int?? = nil) {
        self.quietStart = quietStart
        self.quietEnd = quietEnd
        self.timeZone = timeZone
        self.dailyCap = dailyCap
    }

    enum Keys: String, CodingKey { case quietStart, quietEnd, timeZone, dailyCap }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        if c.contains(.quietStart) { quietStart = .some(try c.decodeIfPresent(String.self, forKey: .quietStart)) }
        if c.contains(.quietEnd) { quietEnd = .some(try c.decodeIfPresent(String.self, forKey: .quietEnd)) }
        timeZone = try c.decodeIfPresent(String.self, forKey: .timeZone)
        if c.contains(.dailyCap) { dailyCap = .some(try c.decodeIfPresent(Int.self, forKey: .dailyCap)) }
    }

    /// Whether any key was sent.
    public var isEmpty: Bool { quietStart == nil && quietEnd == nil && timeZone == nil && dailyCap == nil }

    public typealias Failure = PortfolioInput.Failure

    /// `window` with this input's changes, checked: quiet hours come in pairs of `HH:MM`, a zone
    /// is one the machine knows, a cap is 1…1000.
    public func applied(to window: DeliveryWindow) throws(Failure) -> DeliveryWindow {
        var changed = window
        if quietStart != nil || quietEnd != nil {
            let start = quietStart.map { $0 } ?? window.quietStart.map(DeliveryWindow.text)
            let end = quietEnd.map { $0 } ?? window.quietEnd.map(DeliveryWindow.text)
            switch (start, end) {
            case (nil, nil): (changed.quietStart, changed.quietEnd) = (nil, nil)
            case (let s?, let e?):
                guard let from = DeliveryWindow.minutes(s), let to = DeliveryWindow.minutes(e) else { throw Failure(.alertBadQuiet) }
                (changed.quietStart, changed.quietEnd) = (from, to)
            default: throw Failure(.alertBadQuiet)
            }
        }
        if let zone = timeZone?.trimmingCharacters(in: .whitespaces) {
            // A tz database name (`Asia/Seoul`, `Etc/GMT+9`): the lookup reads a C string, so
            // `Asia/Seoul` followed by a NUL and anything would pass it.
            guard zone.utf8.count <= 64, zone.unicodeScalars.allSatisfy(Self.zoneCharacters.contains), TimeZone(identifier: zone) != nil
            else { throw Failure(.alertBadTimeZone) }
            changed.timeZone = zone
        }
        if let cap = dailyCap {
            if let cap, !(1...DeliveryWindow.maxCap).contains(cap) { throw Failure(.alertBadDailyCap) }
            changed.dailyCap = cap
        }
        return changed
    }

    /// The characters of a tz database name.
    static let zoneCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/_+-".unicodeScalars)
}
