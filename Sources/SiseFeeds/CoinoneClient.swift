import Foundation
import SiseCore

/// The live Coinone public v2 client: KRW pairs only, within 15 of its 20 requests a second
/// (1,200 a minute per address), every answer judged by its `result` (errors come with HTTP 200,
/// an unknown path with an HTML page), a rate-limit refusal waited out and retried a few times.
public struct CoinoneClient: ExchangeAPI {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var maxRetriesAfter429: Int

        public init(baseURL: URL, maxRetriesAfter429: Int = 3) {
            self.baseURL = baseURL
            self.maxRetriesAfter429 = maxRetriesAfter429
        }
    }

    public static let defaultURL = URL(string: "https://api.coinone.co.kr")!
    static let group: RateLimitGroup = "public"

    public let configuration: Configuration
    private let transport: any HTTPTransport
    private let limiter: RateLimiter
    public var requestCounts: [RateLimitGroup: UpstreamRequestCount] { limiter.requestCounts }

    public init(configuration: Configuration, transport: any HTTPTransport, limiter: RateLimiter = RateLimiter(limit: 15)) {
        self.configuration = configuration
        self.transport = transport
        self.limiter = limiter
    }

    /// Tradable KRW pairs (not under maintenance, not halted). Coinone names coins only in
    /// English (`/currencies`, best effort); Korean names are borrowed by the engine.
    public func markets() async throws -> [Market] {
        let listed: CoinoneDTO.Markets = try await get("/public/v2/markets/KRW", [:])
        let currencies: CoinoneDTO.Currencies? = try? await get("/public/v2/currencies", [:])
        var english: [String: String] = [:]
        for currency in currencies?.currencies ?? [] {
            if let name = currency.name, !name.isEmpty { english[currency.symbol.uppercased()] = name }
        }
        return listed.markets.compactMap { row in
            guard row.maintenance_status ?? 0 == 0, row.trade_status ?? 1 != 0,
                let id = MarketID("\(row.quote_currency.uppercased())-\(row.target_currency.uppercased())")
            else { return nil }
            return Market(id: id, koreanName: "", englishName: english[id.base] ?? id.base)
        }
    }

    public func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] {
        guard quotes.contains(.krw) else { return [] }
        let body: CoinoneDTO.Tickers = try await get("/public/v2/ticker_new/KRW", ["additional_data": "true"])
        return body.tickers.compactMap { try? $0.toTicker() }
    }

    /// One call for the whole KRW list, kept to the markets asked; an unknown one is simply absent.
    public func tickers(markets: [MarketID]) async throws -> [Ticker] {
        guard !markets.isEmpty else { return [] }
        let wanted = Set(markets)
        return try await tickers(quotes: [.krw]).filter { wanted.contains($0.market) }
    }

    /// Newest first; `to` exclusive, as every `ExchangeAPI` answers.
    public func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] {
        guard let interval = Self.interval(unit) else {
            throw FeedError.badRequest(name: "interval", message: "Coinone has no \(unit.pathComponent) candles")
        }
        var query = ["interval": interval, "size": String(min(max(count, 1), 200))]
        if let to { query["timestamp"] = String(Int64(to.timeIntervalSince1970 * 1_000) - 1) }
        let body: CoinoneDTO.Chart = try await get(Self.pairPath("chart", market), query)
        return body.chart.compactMap { row -> Candle? in
            typealias N = CoinoneDTO
            guard let open = N.number(row.open), let high = N.number(row.high), let low = N.number(row.low),
                let close = N.number(row.close)
            else { return nil }
            let volume = N.number(row.target_volume) ?? 0
            return Candle(
                market: market,
                start: Date(timeIntervalSince1970: Double(row.timestamp) / 1_000),
                open: open,
                high: high,
                low: low,
                close: close,
                volume: volume,
                value: N.number(row.quote_volume) ?? volume * close,
                lastTradeAt: row.timestamp
            )
        }.sorted { $0.start > $1.start }
    }

    /// `GET /public/v2/orderbook/KRW/{coin}`: bids descending, asks ascending (both best first here;
    /// the WebSocket sends asks the other way round, so both are sorted by price).
    public func orderbook(market: MarketID) async throws -> Orderbook {
        let book: CoinoneDTO.Book = try await get(Self.pairPath("orderbook", market), ["size": "15"])
        func side(_ rows: [CoinoneDTO.Book.Level]) throws -> [Orderbook.Quote] { try StringNumber.levels(rows.map { ($0.price, $0.qty) }) }
        return Orderbook(
            market: market,
            timestamp: book.timestamp ?? 0,
            asks: try side(book.asks).sorted { $0.price < $1.price },
            bids: try side(book.bids).sorted { $0.price > $1.price }
        )
    }

    /// `GET /public/v2/trades/KRW/{coin}?size=`, newest first; the trade `id` is its identity.
    public func trades(market: MarketID, count: Int) async throws -> [Trade] {
        let size = [10, 50, 100, 150, 200].first { $0 >= count } ?? 200
        let body: CoinoneDTO.Trades = try await get(Self.pairPath("trades", market), ["size": String(size)])
        return try body.transactions.prefix(max(count, 1)).map { row in
            guard let price = CoinoneDTO.number(row.price), let volume = CoinoneDTO.number(row.qty), let id = Int64(row.id) else {
                throw FeedError.malformedPayload(context: "trades: a trade that is not a number")
            }
            return Trade(
                market: market,
                price: price,
                volume: volume,
                side: row.is_seller_maker ? .bid : .ask,
                timestamp: row.timestamp,
                sequentialID: id,
                prevClosingPrice: 0,
                changePrice: 0
            )
        }.sorted { ($0.timestamp, $0.sequentialID) > ($1.timestamp, $1.sequentialID) }
    }

    /// Coinone's tick ladder for KRW is the table Sise already knows.
    public func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] { [:] }

    public func serves(_ unit: CandleUnit) -> Bool { Self.interval(unit) != nil }

    /// 1, 3, 5, 15 and 30 minutes, an hour, 4 hours, a day, a week, a month (10 minutes is in the
    /// docs' text but not their list of values, so it is not asked for).
    static func interval(_ unit: CandleUnit) -> String? {
        switch unit {
        case .minutes(let n) where [1, 3, 5, 15, 30].contains(n): "\(n)m"
        case .minutes(60): "1h"
        case .minutes(240): "4h"
        case .days: "1d"
        case .weeks: "1w"
        case .months: "1mon"
        default: nil
        }
    }

    static func pairPath(_ endpoint: String, _ market: MarketID) -> String {
        "/public/v2/\(endpoint)/\(market.quote)/\(market.base)"
    }

    /// Every coin's wallet (`/public/v2/currencies`; one row per coin, no network).
    public func wallets() async throws -> [WalletStatus] {
        let body: CoinoneCurrenciesDTO = try await get("/public/v2/currencies", [:])
        return body.toWallets()
    }

    // MARK: - Transport

    private func get<T: Decodable>(_ path: String, _ query: [String: String]) async throws -> T {
        let url = try RESTURL.make(configuration.baseURL, path, query)
        // Coinone refuses with HTTP 429 or with error code 4 in a 200.
        let response = try await limiter.send(
            url,
            in: Self.group,
            over: transport,
            retries: configuration.maxRetriesAfter429,
            remaining: { $0.header("public-ratelimit-remaining").flatMap { Int($0.prefix(12)) }.map { min($0, 20) } },
            refused: { $0.status == 429 || Self.status($0)?.errorCode == "4" }
        )
        let status = Self.status(response)
        guard (200..<300).contains(response.status) else {
            throw Self.error(code: status?.errorCode, message: status?.errorMessage, status: response.status)
        }
        guard let status else { throw FeedError.malformedPayload(context: "\(path): not JSON") }
        guard status.result == "success" else {
            throw Self.error(code: status.errorCode, message: status.errorMessage, status: 400)
        }
        return try UpbitDecoding.decode(T.self, from: response.body, context: path)
    }

    /// The result and error code every answer of Coinone's carries (nil: not JSON).
    private static func status(_ response: HTTPResponseData) -> CoinoneDTO.Status? {
        try? JSONDecoder().decode(CoinoneDTO.Status.self, from: response.body)
    }

    /// Coinone's codes: 108 unknown coin and 109 unknown pair are "not found", 107 a bad
    /// parameter, 405 maintenance; anything else keeps its HTTP status.
    static func error(code: String?, message: String?, status: Int) -> FeedError {
        let text = String((message ?? "").prefix(200))
        let name = String((code ?? String(status)).prefix(20))
        switch code {
        case "108", "109": return .notFound(name: name, message: text)
        case "107": return .badRequest(name: name, message: text)
        case "405": return .server(status: 503)
        default: break
        }
        switch status {
        case 200..<300, 400: return .badRequest(name: name, message: text)
        case 401: return .unauthorized(name: name, message: text)
        case 403: return .forbidden(name: name, message: text)
        case 404: return .notFound(name: name, message: text)
        case 500...599: return .server(status: status)
        default: return .unexpectedStatus(status: status, message: text)
        }
    }
}
