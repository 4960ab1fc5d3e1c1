import Foundation
import SiseFeeds

/// How fresh a board is: `connecting` (nothing loaded yet and nothing has failed: the board's
/// first state, and a woken board's until its first data), `live` (the stream delivers),
/// `delayed` (REST polling while the stream is down), `offline` (nothing answers; the last values stay, marked stale), `idle` (nobody
/// watched for a while, so the upstream stream was closed; the last values stay, marked stale,
/// until the next viewer wakes it).
public enum Connectivity: String, Sendable, Codable, CaseIterable {
    case connecting
    case live
    case delayed
    case offline
    case idle

    /// The board's last values are kept but no longer followed: every face marks them stale.
    public var keepsStaleValues: Bool { self == .offline || self == .idle }
}

/// The connectivity of one exchange's board and since when.
public struct ConnectivityStatus: Sendable, Equatable {
    public var exchange: String
    public var state: Connectivity
    /// Epoch milliseconds when this state began.
    public var since: Int64
    /// Epoch milliseconds of the last good data, if any arrived.
    public var lastDataAt: Int64?
    /// Why the board is not live, when it is not.
    public var error: FeedError?

    public init(exchange: String, state: Connectivity, since: Int64, lastDataAt: Int64? = nil, error: FeedError? = nil) {
        self.exchange = exchange
        self.state = state
        self.since = since
        self.lastDataAt = lastDataAt
        self.error = error
    }
}
