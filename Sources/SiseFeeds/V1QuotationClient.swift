import Foundation
import SiseCore

/// The live `ExchangeAPI` of Upbit — and of Bithumb's `/v1`, an Upbit look-alike with traps
/// (`dialect: .bithumb`): REST over an `HTTPTransport`, every call inside the per-group limit,
/// 429s waited out and retried a few times, 418s surfaced at once and never retried.
public struct V1QuotationClient: ExchangeAPI {
    /// Upbit, or Bithumb's traps: errors with HTTP 200, no `/v1/ticker/all` (tickers by market
    /// list, at most 200 a call), ticker times in KST written as epoch ms, no instruments.
    public enum Dialect: Sendable {
        case upbit, bithumb
    }

    public struct Configuration: Sendable {
        public var baseURL: URL
        public var dialect: Dialect
        /// How many times a 429 is waited out before the error reaches the caller.
        public var maxRetriesAfter429: Int
        /// How long a 418 closes a group when the answer does not say.
        public var defaultBan: Duration

        public init(baseURL: URL, dialect: Dialect = .upbit, maxRetriesAfter429: Int = 3, defaultBan: Duration = .seconds(60)) {
            self.baseURL = baseURL
            self.dialect = dialect
            self.maxRetriesAfter429 = maxRetriesAfter429
            self.defaultBan = defaultBan
        }
    }

    public let configuration: Configuration
    private let transport: any HTTPTransport
    private let limiter: RateLimiter
    public var requestCounts: [RateLimitGroup: UpstreamRequestCount] { limiter.requestCounts }

    public init(configuration: Configuration, transport: any HTTPTransport, limiter: RateLimiter = RateLimiter()) {
        self.configuration = configuration
        self.transport = transport
        self.limiter = limiter
    }

    public static let bithumbURL = URL(string: "https://api.bithumb.com")!
    /// Bithumb refuses more markets than this in one ticker call.
    public static let bithumbMarketsPerCall = 200
    /// Bithumb's ticker times are KST wall time written as epoch ms: this far ahead.
    static let bithumbClockSkew: Int64 = 9 * 3_600 * 1_000

    private var isBithumb: Bool { configuration.dialect == .bithumb }

    public func markets() async throws -> [Market] {
        guard isBithumb else { return try await listed() }
        // Bithumb says why a market is flagged in a list of its own, read before and after the
        // markets (`Market.agreeing`); best effort: without it the markets' flags are unknown
        // (never read as cleared).
        let before: [BithumbWarningDTO]? = try? await get("/v1/market/virtual_asset_warning", [:], group: .market)
        let markets = try await listed()
        // One reading alone is shown but not taken as the exchange's word.
        guard let before, let after: [BithumbWarningDTO] = try? await get("/v1/market/virtual_asset_warning", [:], group: .market) else {
            return BithumbWarningDTO.apply(before ?? [], to: markets).map(\.flagsUnknown)
        }
        return Market.agreeing(BithumbWarningDTO.apply(before, to: markets), BithumbWarningDTO.apply(after, to: markets))
    }

    /// The market list alone (with the flags it carries itself).
    private func listed() async throws -> [Market] {
        let rows: [UpbitMarketDTO] = try await get("/v1/market/all", [isBithumb ? "isDetails" : "is_details": "true"], group: .market)
        return try rows.map { try $0.toMarket() }
    }

    public func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] {
        if isBithumb {
            let wanted = Set(quotes.map(\.rawValue))
            return try await tickers(markets: try await listed().map(\.id).filter { wanted.contains($0.quote) })
        }
        let list = quotes.map(\.rawValue).joined(separator: ",")
        let rows: [UpbitTickerDTO] = try await get("/v1/ticker/all", ["quote_currencies": list], group: .ticker)
        return try rows.map { try $0.toTicker() }
    }

    public func tickers(markets: [MarketID]) async throws -> [Ticker] {
        guard !markets.isEmpty else { return [] }
        guard isBithumb else {
            let rows: [UpbitTickerDTO] = try await get("/v1/ticker", ["markets": markets.map(\.code).joined(separator: ",")], group: .ticker)
            return try rows.map { try $0.toTicker() }
        }
        var tickers: [Ticker] = []
        for start in stride(from: 0, to: markets.count, by: Self.bithumbMarketsPerCall) {
            let chunk = markets[start..<min(start + Self.bithumbMarketsPerCall, markets.count)]
            let rows: [UpbitTickerDTO] = try await get("/v1/ticker", ["markets": chunk.map(\.code).joined(separator: ",")], group: .ticker)
            for row in rows {
                var ticker = try row.toTicker()
                ticker.timestamp -= Self.bithumbClockSkew
                ticker.tradeTimestamp -= Self.bithumbClockSkew
                tickers.append(ticker)
            }
        }
        return tickers
    }

    public func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] {
        var query = ["market": market.code, "count": String(min(max(count, 1), 200))]
        if let to {
            query["to"] = ISO8601DateFormatter().string(from: to)
        }
        let rows: [UpbitCandleDTO] = try await get("/v1/candles/\(unit.pathComponent)", query, group: .candles)
        return try rows.map { try $0.toCandle() }
    }

    /// `GET /v1/orderbook?markets=` (Bithumb's `/v1` alike): 15 levels, each an ask and a bid.
    public func orderbook(market: MarketID) async throws -> Orderbook {
        let rows: [UpbitOrderbookDTO] = try await get("/v1/orderbook", ["markets": market.code], group: .orderbook)
        guard let row = rows.first else { throw FeedError.notFound(name: "orderbook", message: "no order book for \(market.code)") }
        return try row.toOrderbook()
    }

    /// `GET /v1/trades/ticks?market=&count=`, newest first.
    public func trades(market: MarketID, count: Int) async throws -> [Trade] {
        let rows: [UpbitTradeDTO] = try await get(
            "/v1/trades/ticks",
            ["market": market.code, "count": String(min(max(count, 1), 500))],
            group: .trade
        )
        return try rows.map { try $0.toTrade() }
    }

    public func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] {
        // Bithumb has no instruments endpoint: its KRW ladder is the table Sise knows.
        guard !markets.isEmpty, !isBithumb else { return [:] }
        let list = markets.map(\.code).joined(separator: ",")
        let rows: [UpbitInstrumentDTO] = try await get("/v1/orderbook/instruments", ["markets": list], group: .orderbook)
        var ticks: [MarketID: Decimal] = [:]
        for row in rows {
            if let id = MarketID(row.market), let tick = TickSize.parse(row.tick_size) { ticks[id] = tick }
        }
        return ticks
    }

    /// Bithumb's wallets per network (the key-less `/public/assetsstatus/multichain/ALL`), with
    /// the withdrawal fees of `/v2/fee/inout/ALL` where their network is certain (best effort).
    public func wallets() async throws -> [WalletStatus] {
        // Upbit's own need a key: `UpbitWalletClient`.
        guard isBithumb else { throw FeedError.unauthorized(name: "key_needed", message: "Upbit's wallet status needs a key") }
        let status: BithumbAssetsStatusDTO = try await get("/public/assetsstatus/multichain/ALL", [:], group: .market)
        guard status.status == "0000", let rows = status.data else {
            let code = String(status.status.prefix(20))
            throw FeedError.badRequest(name: code, message: String((status.message ?? code).prefix(200)))
        }
        let fees: [BithumbFeeDTO] = (try? await get("/v2/fee/inout/ALL", [:], group: .market)) ?? []
        return BithumbFeeDTO.join(rows, fees: fees)
    }

    /// Bithumb's 20 newest notices (`/v1/notices?count=20`, public).
    public func notices() async throws -> [ExchangeNotice] {
        guard isBithumb else { throw FeedError.notFound(name: "notices", message: "Upbit's notices are UpbitNoticesClient's") }
        let rows: [BithumbNoticeDTO] = try await get("/v1/notices", ["count": "20"], group: .market)
        return rows.compactMap { $0.toNotice() }
    }

    // MARK: - Transport

    private func get<T: Decodable>(_ path: String, _ query: [String: String], group: RateLimitGroup) async throws -> T {
        let url = try RESTURL.make(configuration.baseURL, path, query)
        let response = try await limiter.send(
            url,
            in: group,
            over: transport,
            retries: configuration.maxRetriesAfter429,
            remaining: { $0.header("remaining-req").flatMap(RemainingRequests.init(header:))?.perSecond }
        )
        switch response.status {
        case 200..<300:
            // Bithumb answers its errors with HTTP 200 and an Upbit-style body.
            if let failure = UpbitDecoding.errorInSuccess(response.body) { throw failure }
            return try UpbitDecoding.decode(T.self, from: response.body, context: path)
        case 418:
            let ban = RetryAfter.parse(response.header("retry-after")) ?? configuration.defaultBan
            await limiter.blocked(group, for: ban)
            throw FeedError.blocked(retryAfter: ban)
        default:
            throw UpbitDecoding.error(status: response.status, body: response.body)
        }
    }
}
