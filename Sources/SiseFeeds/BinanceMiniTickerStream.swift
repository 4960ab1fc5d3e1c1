import Foundation
import Logging
import SiseCore
import Synchronization

/// What the Binance stream reports.
public enum BinanceStreamEvent: Sendable {
    case connected
    /// Last prices by base symbol (`BTC`), with the event time (epoch ms).
    case prices([String: Double], at: Int64)
    case disconnected(FeedError)
}

/// Binance's all-market mini-ticker stream (`/ws/!miniTicker@arr`: every pair that changed,
/// once a second), on Sise's own WebSocket client (no `Origin`; pings answered). One
/// connection for every viewer; silence past `silence` counts as a lost connection; reconnects
/// back off (and wait out a refused upgrade's 429 / 418).
public final class BinanceMiniTickerStream: Sendable {
    public let url: URL
    let silence: Duration
    private let logger: Logger

    public init(webSocketBase: URL, silence: Duration = .seconds(10), logger: Logger = Logger(label: "sise.binance.stream")) {
        url = webSocketBase.appendingPathComponent("ws").appendingPathComponent("!miniTicker@arr")
        self.silence = silence
        self.logger = logger
    }

    /// Connects and reconnects until cancelled.
    public func run(events: @escaping @Sendable (BinanceStreamEvent) async -> Void) async {
        var attempt = 0
        var gate = ConnectRateGate(limit: 5)
        while !Task.isCancelled {
            let wait = gate.wait(at: .now)
            if wait > .zero { try? await Task.sleep(for: wait) }
            gate.record(.now)
            let (error, delivered) = await connectOnce(events)
            if Task.isCancelled { return }
            await events(.disconnected(error))
            attempt = delivered ? 0 : attempt + 1
            var delay = StreamBackoff.delay(attempt: attempt, base: .milliseconds(500), cap: .seconds(30), jitter: Double.random(in: 0...1))
            if let refusal = TickerStream.refusalWait(error), refusal > delay { delay = refusal }
            logger.debug("binance stream lost", metadata: ["error": "\(error)", "retry": "\(delay)"])
            do { try await Task.sleep(for: delay) } catch { return }
        }
    }

    /// One connection: until it closes, fails or falls silent. Whether it delivered prices.
    private func connectOnce(_ events: @escaping @Sendable (BinanceStreamEvent) async -> Void) async -> (FeedError, Bool) {
        let host = url.host ?? "binance"
        let session = Session(host: host, silence: silence, events: events)
        do {
            let closed = try await UpstreamWebSocket.connect(to: url, options: .init(maxFrameSize: 4 << 20), logger: logger) { connection in
                try await session.run(connection)
            }
            return (closed, session.delivered)
        } catch let refused as UpstreamWebSocket.Refusal {
            return (refused.error, false)
        } catch {
            return ((error as? FeedError) ?? .unreachable(host: host, reason: String(describing: error)), session.delivered)
        }
    }

    /// One open connection: the reader and the silence watchdog.
    final class Session: Sendable {
        let host: String
        let silence: Duration
        let events: @Sendable (BinanceStreamEvent) async -> Void
        private let state = Mutex((last: ContinuousClock.now, delivered: false))

        init(host: String, silence: Duration, events: @escaping @Sendable (BinanceStreamEvent) async -> Void) {
            self.host = host
            self.silence = silence
            self.events = events
        }

        var delivered: Bool { state.withLock { $0.delivered } }

        func run(_ connection: UpstreamWebSocketConnection) async throws -> FeedError {
            await events(.connected)
            let ended = try await withThrowingTaskGroup(of: FeedError.self) { group in
                group.addTask { try await self.read(connection) }
                group.addTask { try await self.watch() }
                let first = try await group.next() ?? .timeout
                group.cancelAll()
                return first
            }
            if case .timeout = ended { try? await connection.close(.goingAway) }
            return ended
        }

        private func read(_ connection: UpstreamWebSocketConnection) async throws -> FeedError {
            let code = try await connection.read { message in
                guard case .text(let buffer) = message else { return }
                let now = ContinuousClock.now
                state.withLock { $0.last = now }
                guard let (prices, at) = BinanceMiniTickerStream.decode(Data(buffer.readableBytesView)) else { return }
                state.withLock { $0.delivered = true }
                await events(.prices(prices, at: at))
            }
            return .unreachable(host: host, reason: "closed" + (code.map { " (\($0))" } ?? ""))
        }

        /// Binance speaks every second; silence means a dead (or frozen) socket.
        private func watch() async throws -> FeedError {
            while true {
                try await Task.sleep(for: .seconds(1))
                if state.withLock({ $0.last }).duration(to: .now) > silence { return .timeout }
            }
        }
    }

    /// A frame's USDT prices and its latest event time; nil for anything else (garbage, an
    /// error object) — a bad frame is skipped, never trusted.
    static func decode(_ data: Data) -> ([String: Double], Int64)? {
        let events: [BinanceMiniTickerDTO]
        if let array = try? JSONDecoder().decode([BinanceMiniTickerDTO].self, from: data) {
            events = array
        } else if let combined = try? JSONDecoder().decode(BinanceCombinedDTO<[BinanceMiniTickerDTO]>.self, from: data) {
            events = combined.data
        } else if let one = try? JSONDecoder().decode(BinanceMiniTickerDTO.self, from: data) {
            events = [one]
        } else {
            return nil
        }
        var prices: [String: Double] = [:]
        var at: Int64 = 0
        for event in events {
            guard let (base, price) = BinancePairs.usdt(event.s, event.c) else { continue }
            prices[base] = price
            at = max(at, event.E ?? 0)
        }
        return prices.isEmpty ? nil : (prices, at)
    }
}
