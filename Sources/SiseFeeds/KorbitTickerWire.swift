import Foundation
import SiseCore

/// Korbit's `/v2/public` WebSocket protocol: the subscribe request and the frames. WebSocket pings
/// keep it open.
public struct KorbitTickerWire: TickerWireFormat {
    public init() {}

    public func subscription(codes: [MarketID]) -> [String] { [Self.request(codes: codes)] }

    public var textPing: String? { nil }

    public func decode(_ bytes: UnsafeRawBufferPointer) -> TickerStreamEvent { Self.decode(bytes) }

    /// `[{"requestId":1,"method":"subscribe","type":"ticker","symbols":["btc_krw",…]}]` — an
    /// array, or Korbit answers `invalid_format`.
    static func request(codes: [MarketID]) -> String {
        let symbols = codes.map { "\"\(KorbitSymbol.symbol($0))\"" }.joined(separator: ",")
        return #"[{"requestId":1,"method":"subscribe","type":"ticker","symbols":[\#(symbols)]}]"#
    }

    /// The envelope every frame shares (`data` differs by `type`, so it is read apart).
    private struct Frame: Decodable {
        var symbol: String?
        var timestamp: Int64?
        var type: String?
        var status: String?
        var code: String?
        var message: String?
    }

    private struct TickerData: Decodable {
        var data: KorbitDTO.Ticker
    }

    /// A ticker frame, an acknowledgement or another channel's frame (`heartbeat`), a refusal
    /// (`rejected`), or garbage.
    public static func decode(_ bytes: UnsafeRawBufferPointer) -> TickerStreamEvent {
        let data = Data(bytes)
        guard let frame = try? JSONDecoder().decode(Frame.self, from: data) else { return .garbage }
        if let status = frame.status {
            guard status == "fail" else { return .heartbeat }
            return .rejected(name: String((frame.code ?? "fail").prefix(60)), message: String((frame.message ?? "").prefix(200)))
        }
        guard let type = frame.type else { return .garbage }
        guard type == "ticker" else { return .heartbeat }
        guard let body = try? JSONDecoder().decode(TickerData.self, from: data),
            let ticker = try? body.data.toTicker(symbol: frame.symbol, at: frame.timestamp)
        else { return .garbage }
        return .ticker(ticker)
    }
}
