import SiseFeeds

/// A board's connectivity as a pure state machine, like the stream's `StreamConnectionMachine`:
/// what the board says it is (`connecting`, `live`, `delayed`, `offline`, `idle`) after each
/// thing that happens to its feed. No sockets, no clock; `LiveBoard` feeds it events and
/// publishes the changes it returns.
///
/// The rules: a tick from the stream makes the board live; losing the stream makes a live board
/// delayed (REST takes over); a REST answer keeps a board without a stream delayed (with the last
/// error shown), a REST failure makes it offline; a parked feed is idle and ignores stragglers;
/// woken, it is delayed on its last board, or connecting when it never had one.
public struct BoardFeedMachine: Equatable, Sendable {
    public private(set) var state: Connectivity = .connecting
    public private(set) var error: FeedError?
    /// The stream delivers ticks now (REST stays quiet).
    public private(set) var streamDelivering = false
    /// The market list and a first board are in.
    public private(set) var loaded = false
    /// Parked because nobody watches.
    public private(set) var idle = false

    public enum Event: Equatable, Sendable {
        /// The stream delivered ticks.
        case streamTicks
        /// The stream's connection ended (a drop, a silence, a refusal).
        case streamLost(FeedError)
        /// The first listing and board came in over REST.
        case listed
        /// REST answered a poll.
        case polled
        case restFailed(FeedError)
        /// Nobody watches: the feed is parked.
        case parked
        /// Someone watches again.
        case woke
    }

    public init() {}

    /// Applies `event`; returns the state and error to publish when either changed.
    @discardableResult
    public mutating func handle(_ event: Event) -> (state: Connectivity, error: FeedError?)? {
        switch event {
        case .parked:
            idle = true
            streamDelivering = false
            return move(.idle, nil)
        case .woke:
            idle = false
            return move(loaded ? .delayed : .connecting, nil)
        case .listed:
            // The board is in even when it lands after the feed was parked.
            loaded = true
        default:
            break
        }
        // A frame or an answer still in flight when the feed was parked changes nothing.
        guard !idle else { return nil }
        switch event {
        case .streamTicks:
            streamDelivering = true
            return state == .live ? nil : move(.live, nil)
        case .streamLost(let lost):
            streamDelivering = false
            return state == .live ? move(.delayed, lost) : nil
        case .listed:
            return streamDelivering ? nil : move(.delayed, nil)
        case .polled:
            return streamDelivering ? nil : move(.delayed, error)
        case .restFailed(let failure):
            return streamDelivering ? nil : move(.offline, failure)
        case .parked, .woke:
            return nil
        }
    }

    private mutating func move(_ next: Connectivity, _ nextError: FeedError?) -> (state: Connectivity, error: FeedError?)? {
        guard next != state || nextError != error else { return nil }
        state = next
        error = nextError
        return (next, nextError)
    }
}
