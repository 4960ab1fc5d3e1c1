import Foundation
import SiseCore

/// The live `UpbitAPI`: REST over an `HTTPTransport`, every call inside the per-group limit,
/// 429s waited out and retried a few times, 418s surfaced at once and never retried.
public struct UpbitClient: UpbitAPI {
    public struct Configuration: Sendable {
        public var baseURL: URL
        /// How many times a 429 is waited out before the error reaches the caller.
        public var maxRetriesAfter429: Int
        /// How long a 418 closes a group when the answer does not say.
        public var defaultBan: Duration

        public init(baseURL: URL, maxRetriesAfter429: Int = 3, defaultBan: Duration = .seconds(60)) {
            self.baseURL = baseURL
            self.maxRetriesAfter429 = maxRetriesAfter429
            self.defaultBan = defaultBan
        }
    }

    public let configuration: Configuration
    private let transport: any HTTPTransport
    private let limiter: RateLimiter

    public init(configuration: Configuration, transport: any HTTPTransport, limiter: RateLimiter = RateLimiter()) {
        self.configuration = configuration
        self.transport = transport
        self.limiter = limiter
    }

    public func markets() async throws -> [Market] {
        let rows: [UpbitMarketDTO] = try await get("/v1/market/all", ["is_details": "true"], group: .market)
        return try rows.map { try $0.toMarket() }
    }

    public func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] {
        let list = quotes.map(\.rawValue).joined(separator: ",")
        let rows: [UpbitTickerDTO] = try await get("/v1/ticker/all", ["quote_currencies": list], group: .ticker)
        return try rows.map { try $0.toTicker() }
    }

    public func tickers(markets: [MarketID]) async throws -> [Ticker] {
        guard !markets.isEmpty else { return [] }
        let list = markets.map(\.code).joined(separator: ",")
        let rows: [UpbitTickerDTO] = try await get("/v1/ticker", ["markets": list], group: .ticker)
        return try rows.map { try $0.toTicker() }
    }

    public func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] {
        var query = ["market": market.code, "count": String(min(max(count, 1), 200))]
        if let to {
            query["to"] = ISO8601DateFormatter().string(from: to)
        }
        let rows: [UpbitCandleDTO] = try await get("/v1/candles/\(unit.pathComponent)", query, group: .candles)
        return try rows.map { try $0.toCandle() }
    }

    public func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] {
        guard !markets.isEmpty else { return [:] }
        let list = markets.map(\.code).joined(separator: ",")
        let rows: [UpbitInstrumentDTO] = try await get("/v1/orderbook/instruments", ["markets": list], group: .orderbook)
        var ticks: [MarketID: Decimal] = [:]
        for row in rows {
            if let id = MarketID(row.market), let tick = TickSize.parse(row.tick_size) { ticks[id] = tick }
        }
        return ticks
    }

    // MARK: - Transport

    private func get<T: Decodable>(_ path: String, _ query: [String: String], group: RateLimitGroup) async throws -> T {
        let url = try makeURL(path, query)
        var retries = 0
        while true {
            let ticket = try await limiter.acquire(group)
            let response: HTTPResponseData
            do {
                response = try await transport.get(url, headers: [])
                await limiter.release(ticket)
            } catch {
                await limiter.release(ticket)
                throw error
            }
            if let remaining = response.header("remaining-req").flatMap(RemainingRequests.init(header:)) {
                await limiter.observe(RemainingRequests(group: group, perSecond: remaining.perSecond))
            }
            switch response.status {
            case 200..<300:
                return try UpbitDecoding.decode(T.self, from: response.body, context: path)
            case 429:
                let wait = RetryAfter.parse(response.header("retry-after")) ?? .seconds(1)
                await limiter.rateLimited(group, retryAfter: wait)
                retries += 1
                if retries > configuration.maxRetriesAfter429 { throw FeedError.rateLimited(retryAfter: max(wait, .seconds(1))) }
            case 418:
                let ban = RetryAfter.parse(response.header("retry-after")) ?? configuration.defaultBan
                await limiter.blocked(group, for: ban)
                throw FeedError.blocked(retryAfter: ban)
            default:
                throw UpbitDecoding.error(status: response.status, body: response.body)
            }
        }
    }

    private func makeURL(_ path: String, _ query: [String: String]) throws -> URL {
        guard var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false) else {
            throw FeedError.unreachable(host: configuration.baseURL.absoluteString, reason: "bad base URL")
        }
        let basePath = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = basePath + path
        components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components.url else {
            throw FeedError.unreachable(host: configuration.baseURL.absoluteString, reason: "bad URL for \(path)")
        }
        return url
    }
}
