import Foundation

extension ExchangeSpec {
    /// Coinone: public REST v2 and its WebSocket on a host of its own; KRW only; it names coins
    /// in English at most, so Korean names are borrowed. The simulator serves it under `/coinone`,
    /// its WebSocket at `/coinone/stream`.
    public static let coinone = ExchangeSpec(
        exchange: .coinone,
        restURL: CoinoneClient.defaultURL,
        webSocketURL: URL(string: "wss://stream.coinone.co.kr")!,
        webSocketPath: "/stream",
        simulatorPath: "coinone",
        borrowsNames: true,
        client: { url, transport in CoinoneClient(configuration: .init(baseURL: url), transport: transport) },
        wire: { CoinoneTickerWire() },
        wallets: { url, transport, _ in .source(CoinoneClient(configuration: .init(baseURL: url), transport: transport)) },
        accounts: { url, transport, key in CoinoneAccountClient(baseURL: url, key: key, transport: transport) }
    )
}
