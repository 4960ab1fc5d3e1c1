import Foundation
import Logging
import NIOCore
import SiseCore
import Synchronization

/// Upbit's ticker WebSocket, kept alive for as long as `run` runs: subscribe, decode, ping,
/// watch for silence, reconnect with backoff (at most 5 connects a second) and resubscribe the
/// full list every time.
public final class TickerStream: Sendable {
    public let configuration: TickerStreamConfiguration
    private let logger: Logger
    private let wakeup = Wakeup()
    private let resubscribeRequests = Wakeup()
    private let hostHealth = Mutex<Bool?>(nil)
    private let clock: any MonotonicClock
    /// The open connection, for `collect`.
    private let current = Mutex<UpstreamWebSocketConnection?>(nil)
    private let reads = SocketReadCounter()

    public init(
        configuration: TickerStreamConfiguration,
        clock: any MonotonicClock = SystemMonotonicClock(),
        logger: Logger = Logger(label: "sise.upbit.stream")
    ) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
    }

    /// The exchange's REST side answers (`true`) or not: shapes how soon the stream retries.
    public func hostIsHealthy(_ healthy: Bool) {
        hostHealth.withLock { $0 = healthy }
        if healthy { wakeup.signal() }
    }

    /// Reads what the socket holds now and returns once its frames have been handed on (to
    /// `accept` or `events`), or after `patience` when there was nothing to read.
    public func collect(waitingAtMost patience: Duration) async {
        guard let connection = current.withLock({ $0 }) else { return }
        await connection.collect(waitingAtMost: patience)
    }

    /// Reads of the socket so far, over every connection.
    public var socketReads: Int { reads.value }

    /// The code list changed: send the full new list on the live connection.
    public func resubscribe() {
        resubscribeRequests.signal()
    }

    /// Connects and reconnects until cancelled, reporting through `events`.
    /// - Parameters:
    ///   - codes: the full list to subscribe, asked again before every (re)subscription.
    ///   - accept: takes a ticker on the socket's thread, as it is read (true), or leaves it to
    ///     `events` (false). It must not block.
    public func run(
        codes: @escaping @Sendable () async -> [MarketID],
        events: @escaping @Sendable (TickerStreamEvent) async -> Void,
        accept: @escaping @Sendable (Ticker) -> Bool
    ) async {
        var machine = StreamConnectionMachine(timing: configuration.timing)
        var gate = ConnectRateGate(limit: configuration.maxConnectsPerSecond)
        var action = machine.handle(.start, jitter: 0)
        while !Task.isCancelled {
            if let healthy = hostHealth.withLock({ $0 }) {
                _ = machine.handle(healthy ? .hostHealthy : .hostUnhealthy, jitter: 0)
            }
            if case .reconnect(let delay) = action {
                do { try await wakeup.wait(upTo: delay, on: clock) } catch { return }
                action = machine.handle(.start, jitter: 0)
            }
            let wait = gate.wait(at: clock.now)
            if wait > .zero {
                do { try await clock.sleep(for: wait) } catch { return }
            }
            gate.record(clock.now)
            if case .connecting(let attempt) = machine.state { await events(.connecting(attempt: attempt)) }
            let outcome = await connectOnce(codes: codes, events: events, accept: accept)
            if Task.isCancelled { return }
            if outcome.connected { _ = machine.handle(.connected, jitter: 0) }
            if outcome.receivedFrames { _ = machine.handle(.frame, jitter: 0) }
            await events(.disconnected(outcome.error))
            action = machine.handle(.lost, jitter: Double.random(in: 0...1))
            // A refused upgrade names its wait: never come back sooner (a 418 means much later).
            if let refusal = Self.refusalWait(outcome.error), case .reconnect(let delay) = action, delay < refusal {
                logger.warning(
                    "upbit refused the websocket upgrade; waiting",
                    metadata: [
                        "status": "\(outcome.error.status ?? 0)", "group": "\(outcome.group?.rawValue ?? "-")",
                        "wait": "\(refusal)",
                    ]
                )
                action = .reconnect(after: refusal)
            }
        }
    }

    struct Outcome {
        var error: FeedError
        var connected: Bool
        var receivedFrames: Bool
        /// The rate-limit group named by a refused upgrade's `Remaining-Req`, if any.
        var group: RateLimitGroup? = nil
    }

    /// How long a refusal asks us to stay away: 429 its window, 418 its ban (a minute if unsaid).
    public static func refusalWait(_ error: FeedError) -> Duration? {
        switch error {
        case .rateLimited(let wait): max(wait, .seconds(1))
        case .blocked(let ban): ban ?? .seconds(60)
        default: nil
        }
    }

    /// One connection: until it closes, fails, or falls silent.
    private func connectOnce(
        codes: @escaping @Sendable () async -> [MarketID],
        events: @escaping @Sendable (TickerStreamEvent) async -> Void,
        accept: @escaping @Sendable (Ticker) -> Bool
    ) async -> Outcome {
        let session = StreamSession(
            configuration: configuration,
            codes: codes,
            events: events,
            accept: accept,
            resubscribe: resubscribeRequests,
            clock: clock
        )
        let host = configuration.url.host ?? configuration.url.absoluteString
        let options = UpstreamWebSocket.Options(maxFrameSize: configuration.maxFrameSize, readPacing: configuration.readPacing, readCounter: reads)
        do {
            try await UpstreamWebSocket.connect(to: configuration.url, options: options, logger: logger) { connection in
                current.withLock { $0 = connection }
                defer { current.withLock { $0 = nil } }
                try await session.run(connection)
            }
            let reason = session.closeCode.map { "closed (\($0))" } ?? "closed"
            return Outcome(
                error: session.failure ?? .unreachable(host: host, reason: reason),
                connected: session.connected,
                receivedFrames: session.receivedFrames
            )
        } catch let refused as UpstreamWebSocket.Refusal {
            return Outcome(error: refused.error, connected: false, receivedFrames: false, group: refused.group)
        } catch {
            let mapped = session.failure ?? (error as? FeedError) ?? .unreachable(host: host, reason: String(describing: error))
            return Outcome(error: mapped, connected: session.connected, receivedFrames: session.receivedFrames)
        }
    }
}
