import Foundation

/// Fault switches, set by flags at start and flipped at run time through `POST /_sim/faults`.
public struct SimFaults: Codable, Sendable, Equatable {
    /// Added to every exchange answer.
    public var latencyMs: Int = 0
    /// Fraction of exchange answers replaced by `errorStatus`.
    public var errorRate: Double = 0
    public var errorStatus: Int = 500
    /// Fraction of 200 answers whose body is cut short (not valid JSON).
    public var malformedRate: Double = 0
    /// While true, exchange answers never come (until the switch is turned off).
    public var hang: Bool = false
    /// The next N exchange answers get `failNextStatus` (429 and 418 come with their headers).
    public var failNext: Int = 0
    public var failNextStatus: Int = 500
    /// Enforce Upbit's 10 requests per second per group (429, then 418 for continued abuse).
    public var rateLimit: Bool = true

    public init() {}

    /// A partial update: only the keys present change.
    public struct Patch: Decodable, Sendable {
        var latencyMs: Int?
        var errorRate: Double?
        var errorStatus: Int?
        var malformedRate: Double?
        var hang: Bool?
        var failNext: Int?
        var failNextStatus: Int?
        var rateLimit: Bool?
    }

    public mutating func apply(_ patch: Patch) {
        if let v = patch.latencyMs { latencyMs = max(0, v) }
        if let v = patch.errorRate { errorRate = min(max(v, 0), 1) }
        if let v = patch.errorStatus { errorStatus = v }
        if let v = patch.malformedRate { malformedRate = min(max(v, 0), 1) }
        if let v = patch.hang { hang = v }
        if let v = patch.failNext { failNext = max(0, v) }
        if let v = patch.failNextStatus { failNextStatus = v }
        if let v = patch.rateLimit { rateLimit = v }
    }
}
