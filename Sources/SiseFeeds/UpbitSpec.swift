import Foundation

extension ExchangeSpec {
    /// Upbit: the v1 quotation API (10 requests a second per group) and its `/websocket/v1`.
    public static let upbit = ExchangeSpec(
        exchange: .upbit,
        restURL: URL(string: "https://api.upbit.com")!,
        webSocketURL: URL(string: "wss://api.upbit.com/websocket/v1")!,
        webSocketPath: "/websocket/v1",
        client: { url, transport in V1QuotationClient(configuration: .init(baseURL: url), transport: transport) },
        wire: { UpbitTickerWire() },
        depthWire: { UpbitDepthWire() }
    )
}
