import Foundation
import SiseCore

/// How one exchange's ticker WebSocket speaks: what subscribes a list of markets, how a frame
/// reads, and the text keep-alive it wants. `TickerStream` owns everything else (connecting,
/// silence, backoff), the same for every exchange.
public protocol TickerWireFormat: Sendable {
    /// The frames that subscribe exactly `codes`, replacing any earlier subscription on the socket.
    func subscription(codes: [MarketID]) -> [String]
    /// One frame: a ticker, an acknowledgement or keep-alive answer (`heartbeat`), a refusal, or garbage.
    func decode(_ bytes: UnsafeRawBufferPointer) -> TickerStreamEvent
    /// A text keep-alive sent right after subscribing and then every `pingInterval`; nil when
    /// WebSocket pings are all the exchange needs.
    var textPing: String? { get }
}

/// Upbit's protocol (Upbit, and Bithumb's copy of it): one array frame `[{ticket},{type,codes},{format}]`,
/// a text `PING` answered by `{"status":"UP"}`.
public struct UpbitTickerWire: TickerWireFormat {
    public enum Format: String, Sendable {
        case `default` = "DEFAULT"
        case simple = "SIMPLE"
    }

    public var format: Format

    public init(format: Format = .default) { self.format = format }

    public func subscription(codes: [MarketID]) -> [String] { [Self.request(codes: codes.map(\.code), format: format)] }

    public var textPing: String? { "PING" }

    static func request(codes: [String], format: Format) -> String {
        let ticket = UUID().uuidString.lowercased()
        let quoted = codes.map { "\"\($0)\"" }.joined(separator: ",")
        return #"[{"ticket":"\#(ticket)"},{"type":"ticker","codes":[\#(quoted)]},{"format":"\#(format.rawValue)"}]"#
    }

    /// Ticker frames take the byte-level fast path; anything else the full decoder.
    public func decode(_ bytes: UnsafeRawBufferPointer) -> TickerStreamEvent {
        if let ticker = UpbitTickerFrameDecoder.decode(bytes) { return .ticker(ticker) }
        switch try? UpbitStreamDecoder.decode(Data(bytes)) {
        case .ticker(let ticker, _): return .ticker(ticker)
        case .error(let name, let message): return .rejected(name: name, message: message)
        case .status, .trade, .orderbook, .candle, .other: return .heartbeat
        case nil: return .garbage
        }
    }
}
