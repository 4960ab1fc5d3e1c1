import Foundation
import NIOCore
import NIOWebSocket
import SiseCore
import Synchronization

/// One WebSocket connection of the ticker stream: subscribe, read and decode, resubscribe on
/// request, and give up when the socket falls silent.
final class StreamSession: Sendable {
    private let configuration: TickerStreamConfiguration
    private let codes: @Sendable () async -> [MarketID]
    private let events: @Sendable (TickerStreamEvent) async -> Void
    /// Takes a ticker on the socket's thread when it can (true); otherwise it goes to `events`.
    private let accept: @Sendable (Ticker) -> Bool
    private let resubscribe: Wakeup
    private let clock: any MonotonicClock
    private let state: Mutex<State>

    private struct State {
        var connected = false
        var receivedFrames = false
        var failure: FeedError?
        var lastFrame: ContinuousClock.Instant
        var closeCode: WebSocketErrorCode?
    }

    struct Silence: Error {}

    init(
        configuration: TickerStreamConfiguration,
        codes: @escaping @Sendable () async -> [MarketID],
        events: @escaping @Sendable (TickerStreamEvent) async -> Void,
        accept: @escaping @Sendable (Ticker) -> Bool,
        resubscribe: Wakeup,
        clock: any MonotonicClock
    ) {
        self.configuration = configuration
        self.clock = clock
        state = Mutex(State(lastFrame: clock.now))
        self.codes = codes
        self.events = events
        self.accept = accept
        self.resubscribe = resubscribe
    }

    var connected: Bool { state.withLock { $0.connected } }
    var receivedFrames: Bool { state.withLock { $0.receivedFrames } }
    var failure: FeedError? { state.withLock { $0.failure } }
    /// The server's close code, when it closed the socket itself.
    var closeCode: WebSocketErrorCode? { state.withLock { $0.closeCode } }

    func run(_ connection: UpstreamWebSocketConnection) async throws {
        state.withLock {
            $0.connected = true
            $0.lastFrame = clock.now
        }
        try await subscribe(connection)
        // A text PING makes Upbit send {"status":"UP"} every 10 s; WebSocket pings more often
        // than the silence bound make sure a healthy socket is never silent that long.
        if let ping = configuration.wire.textPing { try await connection.send(text: ping) }
        await events(.connected)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.read(connection) }
                group.addTask { try await self.watch() }
                group.addTask { try await self.keepAlive(connection) }
                group.addTask {
                    while true {
                        try await self.resubscribe.wait(upTo: .seconds(3_600))
                        try await self.subscribe(connection)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        } catch is Silence {
            try? await connection.close(.goingAway)
        }
    }

    /// The subscribe request, always with the full code list (a new request replaces the old).
    func subscribe(_ connection: UpstreamWebSocketConnection) async throws {
        let codes = await codes()
        for frame in configuration.wire.subscription(codes: codes) { try await connection.send(text: frame) }
    }

    /// Frames are decoded on the socket's thread as they are read; a ticker the consumer takes
    /// there (`accept`) goes no further, anything else is handed to `events` in order by a task.
    private func read(_ connection: UpstreamWebSocketConnection) async throws {
        let (queue, continuation) = AsyncStream.makeStream(of: TickerStreamEvent.self)
        async let delivered: Void = {
            for await event in queue { await self.events(event) }
        }()
        let code: WebSocketErrorCode?
        do {
            code = try await connection.read(synchronously: { self.take($0, into: continuation) })
        } catch {
            continuation.finish()
            await delivered
            throw error
        }
        continuation.finish()
        await delivered
        if let code, state.withLock({ $0.failure }) == nil {
            state.withLock { $0.closeCode = code }
        }
    }

    private func take(_ message: UpstreamWebSocketConnection.Message, into events: AsyncStream<TickerStreamEvent>.Continuation) {
        let event: TickerStreamEvent
        switch message {
        case .binary(let buffer), .text(let buffer):
            let wire = configuration.wire
            event = buffer.withUnsafeReadableBytes { wire.decode($0) }
            // Only what the exchange sends of its own accord proves the feed is flowing; a
            // pong proves the socket is open, and a socket that answers pings but delivers no
            // prices is exactly the frozen board the watchdog is there to catch.
            let now = clock.now
            state.withLock {
                $0.lastFrame = now
                $0.receivedFrames = true
            }
        case .pong:
            return
        }
        if case .rejected(let name, let message) = event {
            state.withLock { $0.failure = .badRequest(name: name, message: message) }
        }
        if case .ticker(let ticker) = event, accept(ticker) { return }
        events.yield(event)
    }

    /// WebSocket pings well inside the silence bound, and a text `PING` at the configured
    /// interval: Upbit closes sockets idle for 120 s and documents both as keep-alives.
    private func keepAlive(_ connection: UpstreamWebSocketConnection) async throws {
        let interval = min(configuration.pingInterval, configuration.silenceTimeout / 2)
        var sinceText = Duration.zero
        while true {
            try await clock.sleep(for: interval)
            try await connection.ping()
            sinceText += interval
            if let ping = configuration.wire.textPing, sinceText >= configuration.pingInterval {
                try await connection.send(text: ping)
                sinceText = .zero
            }
        }
    }

    /// Fires at the silence bound after the last data frame, to the moment: a stall is
    /// reported as soon as the rule says so, not at the next tick of a polling loop.
    private func watch() async throws {
        let timeout = configuration.silenceTimeout
        while true {
            let deadline = state.withLock { $0.lastFrame }.advanced(by: timeout)
            let now = clock.now
            if now >= deadline {
                state.withLock { $0.failure = .timeout }
                throw Silence()
            }
            try await clock.sleep(for: max(now.duration(to: deadline), .milliseconds(5)))
        }
    }
}
