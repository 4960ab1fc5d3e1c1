import Foundation
import SiseCore

/// Coinone's public WebSocket: one `SUBSCRIBE` frame per market (an object, not an array), a
/// text `{"request_type":"PING"}` keep-alive (the server sends no pings and drops quiet sockets),
/// and frames named by `response_type`. A subscription is never taken back when the list shrinks:
/// a market that left the list only sends tickers the board no longer asks for.
public struct CoinoneTickerWire: TickerWireFormat {
    public init() {}

    public func subscription(codes: [MarketID]) -> [String] {
        codes.map { code in
            #"{"request_type":"SUBSCRIBE","channel":"TICKER","topic":{"quote_currency":"\#(code.quote)","target_currency":"\#(code.base)"},"format":"DEFAULT"}"#
        }
    }

    public var textPing: String? { #"{"request_type":"PING"}"# }

    private struct Frame: Decodable {
        var response_type: String?
        var channel: String?
        var error_code: Int?
        var message: String?
    }

    private struct TickerFrame: Decodable {
        var data: CoinoneDTO.Ticker
    }

    /// `DATA`/`TICKER` is a ticker; `CONNECTED`, `SUBSCRIBED`, `PONG` and other channels are
    /// heartbeats; `ERROR` is a refusal (the socket stays open after one).
    public func decode(_ bytes: UnsafeRawBufferPointer) -> TickerStreamEvent {
        let data = Data(bytes)
        guard let frame = try? JSONDecoder().decode(Frame.self, from: data), let type = frame.response_type else { return .garbage }
        switch type.uppercased() {
        case "ERROR":
            return .rejected(name: String(frame.error_code ?? 0), message: String((frame.message ?? "").prefix(200)))
        case "DATA" where frame.channel?.uppercased() == "TICKER":
            guard let body = try? JSONDecoder().decode(TickerFrame.self, from: data), let ticker = try? body.data.toTicker() else {
                return .garbage
            }
            return .ticker(ticker)
        default:
            return .heartbeat
        }
    }
}
