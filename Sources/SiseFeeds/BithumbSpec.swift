import Foundation

extension ExchangeSpec {
    /// Bithumb: a copy of Upbit's v1 API and WebSocket with its own traps, within 100 requests a
    /// second (it allows 150); the simulator serves it under `/bithumb`.
    public static let bithumb = ExchangeSpec(
        exchange: .bithumb,
        restURL: V1QuotationClient.bithumbURL,
        webSocketURL: URL(string: "wss://ws-api.bithumb.com/websocket/v1")!,
        webSocketPath: "/websocket/v1",
        simulatorPath: "bithumb",
        client: { url, transport in
            V1QuotationClient(configuration: .init(baseURL: url, dialect: .bithumb), transport: transport, limiter: RateLimiter(limit: 100))
        },
        wire: { UpbitTickerWire() },
        depthWire: { UpbitDepthWire() },
        wallets: { url, transport, _ in
            .source(V1QuotationClient(configuration: .init(baseURL: url, dialect: .bithumb), transport: transport, limiter: RateLimiter(limit: 10)))
        },
        accounts: { url, transport, key in V1AccountClient(exchange: .bithumb, baseURL: url, key: key, transport: transport) },
        notices: { url, transport in
            .source(V1QuotationClient(configuration: .init(baseURL: url, dialect: .bithumb), transport: transport, limiter: RateLimiter(limit: 10)))
        }
    )
}
