import Foundation

extension ExchangeSpec {
    /// Korbit: REST v2 (within 40 of its 50 requests a second) and `/v2/public`; it names no
    /// coin, so names are borrowed.
    public static let korbit = ExchangeSpec(
        exchange: .korbit,
        restURL: KorbitClient.defaultURL,
        webSocketURL: URL(string: "wss://ws-api.korbit.co.kr/v2/public")!,
        webSocketPath: "/v2/public",
        borrowsNames: true,
        client: { url, transport in KorbitClient(configuration: .init(baseURL: url), transport: transport) },
        wire: { KorbitTickerWire() },
        depthWire: { KorbitDepthWire() },
        wallets: { url, transport, _ in .source(KorbitClient(configuration: .init(baseURL: url), transport: transport)) },
        accounts: { url, transport, key in KorbitAccountClient(baseURL: url, key: key, transport: transport) },
        notices: { url, transport in .source(KorbitClient(configuration: .init(baseURL: url), transport: transport)) }
    )
}
