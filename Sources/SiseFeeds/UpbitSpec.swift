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
        depthWire: { UpbitDepthWire() },
        wallets: { url, transport, key in
            key.map { .source(UpbitWalletClient(baseURL: url, key: $0, transport: transport)) } ?? .keyNeeded
        },
        walletsNeedKey: true,
        // Its notices are on another host (its web JSON); a simulator's base serves them under `/api-manager`.
        accounts: { url, transport, key in V1AccountClient(exchange: .upbit, baseURL: url, key: key, transport: transport) },
        notices: { url, transport in
            let live = url.host == "api.upbit.com"
            return .source(
                UpbitNoticesClient(baseURL: live ? UpbitNoticesClient.liveURL : url.appendingPathComponent("api-manager"), transport: transport)
            )
        }
    )
}
