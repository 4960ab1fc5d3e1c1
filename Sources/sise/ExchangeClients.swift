import Foundation
import Logging
import SiseCore
import SiseEngine
import SiseFeeds

/// Where one exchange is reached.
struct ExchangeEndpoint: Sendable {
    let exchange: Exchange
    let rest: URL
    let webSocket: URL

    static func defaultURL(_ exchange: Exchange) -> URL {
        switch exchange {
        case .upbit: GlobalOptions.defaultUpbitURL
        case .korbit: KorbitClient.defaultURL
        case .bithumb: UpbitClient.bithumbURL
        }
    }

    /// http→ws, https→wss, and the exchange's own path after the REST base's path:
    /// `/websocket/v1` (Upbit, Bithumb), `/v2/public` (Korbit).
    static func webSocketURL(_ exchange: Exchange, rest: URL) -> URL {
        UpbitStreamConfiguration.webSocketURL(forREST: rest, path: exchange == .korbit ? "/v2/public" : "/websocket/v1")
    }
}

/// Builds an exchange's live clients — the one recipe every command's composition uses.
enum ExchangeClients {
    /// The REST client; Korbit's borrows coin names from the `lenders`' listings.
    static func api(_ exchange: Exchange, _ endpoint: ExchangeEndpoint, transport: any HTTPTransport,
                    lenders: [ExchangeEndpoint] = []) -> any ExchangeAPI {
        switch exchange {
        case .upbit: return UpbitClient(configuration: .init(baseURL: endpoint.rest), transport: transport)
        case .bithumb:
            return UpbitClient(configuration: .init(baseURL: endpoint.rest, dialect: .bithumb), transport: transport,
                               limiter: RateLimiter(limit: 100))
        case .korbit:
            let names = lenders.map { api($0.exchange, $0, transport: transport) }
            return MarketNameLender(KorbitClient(configuration: .init(baseURL: endpoint.rest), transport: transport), lenders: names)
        }
    }

    static func stream(_ endpoint: ExchangeEndpoint, silence: Duration, logger: Logger) -> UpbitTickerStream {
        UpbitTickerStream(configuration: .init(url: endpoint.webSocket, dialect: endpoint.exchange == .korbit ? .korbit : .upbit,
                                               silenceTimeout: silence), logger: logger)
    }
}
