import Foundation
import HummingbirdWSClient
import NIOCore
import SiseCore
import Synchronization

/// One WebSocket connection of the ticker stream: subscribe, read and decode, resubscribe on
/// request, and give up when the socket falls silent.
final class StreamSession: Sendable {
    private let configuration: UpbitStreamConfiguration
    private let codes: @Sendable () async -> [MarketID]
    private let events: @Sendable (UpbitStreamEvent) async -> Void
    private let resubscribe: Wakeup
    private let state = Mutex(State())

    private struct State {
        var connected = false
        var receivedFrames = false
        var failure: FeedError?
        var lastFrame = ContinuousClock.now
    }

    struct Silence: Error {}

    init(configuration: UpbitStreamConfiguration, codes: @escaping @Sendable () async -> [MarketID],
         events: @escaping @Sendable (UpbitStreamEvent) async -> Void, resubscribe: Wakeup) {
        self.configuration = configuration
        self.codes = codes
        self.events = events
        self.resubscribe = resubscribe
    }

    var connected: Bool { state.withLock { $0.connected } }
    var receivedFrames: Bool { state.withLock { $0.receivedFrames } }
    var failure: FeedError? { state.withLock { $0.failure } }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        state.withLock { $0.connected = true; $0.lastFrame = .now }
        try await subscribe(outbound)
        // A text PING makes Upbit send {"status":"UP"} every 10 s: a heartbeat for the watchdog.
        try await outbound.write(.text("PING"))
        await events(.connected)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.read(inbound) }
                group.addTask { try await self.watch() }
                group.addTask {
                    while true {
                        try await self.resubscribe.wait(upTo: .seconds(3_600))
                        try await self.subscribe(outbound)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        } catch is Silence {
            try? await outbound.close(.goingAway, reason: "silent")
        }
    }

    /// The subscribe request, always with the full code list (a new request replaces the old).
    func subscribe(_ outbound: WebSocketOutboundWriter) async throws {
        let list = await codes().map(\.code)
        try await outbound.write(.text(Self.request(codes: list, format: configuration.format)))
    }

    static func request(codes: [String], format: UpbitStreamConfiguration.Format) -> String {
        let ticket = UUID().uuidString.lowercased()
        let quoted = codes.map { "\"\($0)\"" }.joined(separator: ",")
        return #"[{"ticket":"\#(ticket)"},{"type":"ticker","codes":[\#(quoted)]},{"format":"\#(format.rawValue)"}]"#
    }

    private func read(_ inbound: WebSocketInboundStream) async throws {
        for try await message in inbound.messages(maxSize: 1 << 20) {
            state.withLock { $0.lastFrame = .now; $0.receivedFrames = true }
            let event: UpbitStreamEvent
            switch message {
            case .binary(let buffer):
                event = buffer.withUnsafeReadableBytes { Self.decode($0) }
            case .text(let text):
                var copy = text
                event = copy.withUTF8 { Self.decode(UnsafeRawBufferPointer($0)) }
            }
            if case .rejected(let name, let message) = event {
                state.withLock { $0.failure = .badRequest(name: name, message: message) }
            }
            await events(event)
        }
    }

    /// Ticker frames take the byte-level fast path; anything else the full decoder.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> UpbitStreamEvent {
        if let ticker = UpbitTickerFrameDecoder.decode(bytes) { return .ticker(ticker) }
        switch try? UpbitStreamDecoder.decode(Data(bytes)) {
        case .ticker(let ticker, _): return .ticker(ticker)
        case .error(let name, let message): return .rejected(name: name, message: message)
        case .status, .trade, .orderbook, .candle, .other: return .heartbeat
        case nil: return .garbage
        }
    }

    private func watch() async throws {
        let timeout = configuration.silenceTimeout
        while true {
            try await Task.sleep(for: min(timeout / 4, .seconds(1)))
            let last = state.withLock { $0.lastFrame }
            if last.duration(to: .now) > timeout {
                state.withLock { $0.failure = .timeout }
                throw Silence()
            }
        }
    }
}
