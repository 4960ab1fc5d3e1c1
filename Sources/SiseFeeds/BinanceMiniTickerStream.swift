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
/// once a second), on the one `TickerStream` every upstream uses: the same connection machine,
/// backoff, refused-upgrade waits, keep-alive and `--silence` bound as the exchanges' streams.
/// One connection for every viewer.
public final class BinanceMiniTickerStream: Sendable {
    public let url: URL
    private let stream: TickerStream

    public init(webSocketBase: URL, silence: Duration = .seconds(5), logger: Logger = Logger(label: "sise.binance.stream")) {
        url = webSocketBase.appendingPathComponent("ws").appendingPathComponent("!miniTicker@arr")
        var configuration = TickerStreamConfiguration(url: url, wire: BinanceMiniTickerWire(), silenceTimeout: silence, readPacing: nil)
        configuration.maxFrameSize = 4 << 20
        stream = TickerStream(configuration: configuration, logger: logger)
    }

    /// Connects and reconnects until cancelled.
    public func run(events: @escaping @Sendable (BinanceStreamEvent) async -> Void) async {
        await stream.run(
            codes: { [] },
            events: { event in
                switch event {
                case .connected: await events(.connected)
                case .prices(let prices, let at): await events(.prices(prices, at: at))
                case .disconnected(let error): await events(.disconnected(error))
                case .connecting, .ticker, .rejected, .heartbeat, .garbage, .depth: break
                }
            },
            accept: { _ in false }
        )
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

/// Binance's mini-ticker frames: the URL names the stream (nothing to subscribe), WebSocket pings
/// keep it open, every frame is a batch of USDT prices.
struct BinanceMiniTickerWire: TickerWireFormat {
    func subscription(codes: [MarketID]) -> [String] { [] }
    var textPing: String? { nil }

    func decode(_ bytes: UnsafeRawBufferPointer) -> TickerStreamEvent {
        guard let (prices, at) = BinanceMiniTickerStream.decode(Data(bytes)) else {
            // An array that names no USDT pair is a frame with nothing for us, not garbage.
            return bytes.first == UInt8(ascii: "[") ? .heartbeat : .garbage
        }
        return .prices(prices, at: at)
    }
}
