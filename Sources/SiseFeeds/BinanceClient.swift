import Foundation
import SiseCore

/// Binance spot's public REST side, for the kimchi premium's global prices: one call for every
/// `<SYMBOL>USDT` price (`/api/v3/ticker/price`, weight 4 of the 6,000 a minute), typed errors
/// for 429 (its `Retry-After`) and 418 (the IP ban), and the used weight it reports.
public struct BinanceClient: Sendable {
    public struct Configuration: Sendable {
        public static let defaultURL = URL(string: "https://api.binance.com")!
        public static let defaultWebSocketURL = URL(string: "wss://stream.binance.com:9443")!
        /// REST base (`https://api.binance.com`, or a simulator's `…/binance`).
        public var baseURL: URL
        /// WebSocket base; streams live at `<base>/ws/<stream>` and `<base>/stream?streams=`.
        public var webSocketURL: URL

        public init(baseURL: URL = Configuration.defaultURL, webSocketURL: URL? = nil) {
            self.baseURL = baseURL
            self.webSocketURL = webSocketURL ?? Self.derivedWebSocketURL(baseURL)
        }

        /// Binance's own REST host streams from `stream.binance.com:9443`; any other base
        /// (a simulator, a proxy) streams from the same place with `ws`/`wss`.
        public static func derivedWebSocketURL(_ rest: URL) -> URL {
            if rest.host == "api.binance.com" { return defaultWebSocketURL }
            var components = URLComponents(url: rest, resolvingAgainstBaseURL: false)
            components?.scheme = rest.scheme == "https" ? "wss" : "ws"
            return components?.url ?? defaultWebSocketURL
        }
    }

    public let configuration: Configuration
    let transport: any HTTPTransport

    public init(configuration: Configuration = .init(), transport: any HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    /// Every USDT pair's last price, by base symbol (`BTC` → 67291.01).
    public func usdtPrices() async throws -> [String: Double] {
        try await usdtPricesAndWeight().prices
    }

    /// The prices and the request weight Binance says this address used in the current minute
    /// (`x-mbx-used-weight-1m`), so a caller can slow down before a 429.
    public func usdtPricesAndWeight() async throws -> (prices: [String: Double], usedWeight: Int?) {
        let url = try RESTURL.make(configuration.baseURL, "/api/v3/ticker/price", [:])
        let response = try await transport.get(url, headers: [("Accept", "application/json")])
        guard response.status == 200 else { throw Self.error(response) }
        guard let rows = try? JSONDecoder().decode([BinancePriceDTO].self, from: response.body) else {
            throw FeedError.malformedPayload(context: "binance /api/v3/ticker/price")
        }
        var prices: [String: Double] = [:]
        for row in rows {
            if let (base, price) = BinancePairs.usdt(row.symbol, row.price) { prices[base] = price }
        }
        return (prices, response.header("x-mbx-used-weight-1m").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
    }

    /// Every USDT pair's best bid and ask (`/api/v3/ticker/bookTicker`, weight 4; no time in the
    /// answer: stamped `now`), by base symbol — the side a trade abroad would take.
    public func usdtBooks(now: Int64) async throws -> [String: BookTop] {
        let url = try RESTURL.make(configuration.baseURL, "/api/v3/ticker/bookTicker", [:])
        let response = try await transport.get(url, headers: [("Accept", "application/json")])
        guard response.status == 200 else { throw Self.error(response) }
        return try BinancePairs.books(response.body, quote: "USDT", at: now)
    }

    /// Binance's limit of request weight per minute and address.
    public static let weightPerMinute = 6_000

    /// 429: the window to wait out; 418: banned (for `Retry-After`); others by status.
    static func error(_ response: HTTPResponseData) -> FeedError {
        let body = try? JSONDecoder().decode(BinanceErrorDTO.self, from: response.body)
        let message = body?.msg.map { String($0.prefix(120)) } ?? ""
        let wait = RetryAfter.parse(response.header("retry-after"))
        switch response.status {
        case 429: return .rateLimited(retryAfter: wait ?? .seconds(60))
        case 418: return .blocked(retryAfter: wait ?? .seconds(120))
        case 400: return .badRequest(name: String(body?.code ?? 400), message: message)
        case 403: return .forbidden(name: "403", message: message)
        case 500...599: return .server(status: response.status)
        default: return .unexpectedStatus(status: response.status, message: message)
        }
    }
}
