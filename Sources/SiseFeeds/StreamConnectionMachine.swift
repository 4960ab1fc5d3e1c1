import Foundation

/// The life of the ticker stream's connection as a small state machine: what state it is in,
/// and what to do next after each event. No sockets here; `TickerStream` carries out the
/// actions.
public struct StreamConnectionMachine: Sendable {
    public enum State: Equatable, Sendable {
        case idle
        case connecting(attempt: Int)
        /// Connected and subscribed; `receiving` once the first frame arrived.
        case streaming(receiving: Bool)
        case waiting(attempt: Int)
    }

    public enum Event: Equatable, Sendable {
        case start
        case connected
        case frame
        /// The socket ended: closed, dropped, refused, errored or silent too long.
        case lost
        /// The exchange's REST side answers, so the host is up: retry sooner.
        case hostHealthy
        case hostUnhealthy
    }

    public enum Action: Equatable, Sendable {
        case none
        case connect
        case subscribe
        /// Wait this long, then connect.
        case reconnect(after: Duration)
    }

    public struct Timing: Sendable {
        public var base: Duration = .milliseconds(500)
        /// The cap while nothing of the exchange answers.
        public var cap: Duration = .seconds(30)
        /// The cap while REST answers: the stream's trouble is likely brief.
        public var healthyCap: Duration = .milliseconds(1_500)
        public init() {}
    }

    public private(set) var state: State = .idle
    private var hostHealthy = false
    public let timing: Timing

    public init(timing: Timing = Timing()) {
        self.timing = timing
    }

    /// Applies `event`; `jitter` (0...1) feeds the backoff.
    public mutating func handle(_ event: Event, jitter: Double) -> Action {
        switch (state, event) {
        case (.idle, .start), (.waiting, .start):
            state = .connecting(attempt: attemptCount)
            return .connect
        case (.connecting, .connected):
            state = .streaming(receiving: false)
            return .subscribe
        case (.streaming, .frame):
            state = .streaming(receiving: true)
            return .none
        case (.streaming(let receiving), .lost):
            // A connection that delivered data resets the backoff; one that never did does not.
            let attempt = receiving ? 0 : 1
            state = .waiting(attempt: attempt)
            return .reconnect(after: delay(attempt: attempt, jitter: jitter))
        case (.connecting(let attempt), .lost):
            state = .waiting(attempt: attempt + 1)
            return .reconnect(after: delay(attempt: attempt + 1, jitter: jitter))
        case (_, .hostHealthy):
            hostHealthy = true
            return .none
        case (_, .hostUnhealthy):
            hostHealthy = false
            return .none
        default:
            return .none
        }
    }

    private var attemptCount: Int {
        if case .waiting(let attempt) = state { return attempt }
        return 0
    }

    public func delay(attempt: Int, jitter: Double) -> Duration {
        guard attempt > 0 else { return .zero }
        return StreamBackoff.delay(
            attempt: attempt - 1,
            base: timing.base,
            cap: hostHealthy ? timing.healthyCap : timing.cap,
            jitter: jitter
        )
    }
}
