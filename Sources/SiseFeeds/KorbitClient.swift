import Foundation
import SiseCore

/// The live Korbit v2 quotation client: every call inside Korbit's 50 requests a second per
/// address (its `Ratelimit` header read as it goes), a 429 waited out per `Retry-After` and
/// retried a few times. Only KRW pairs exist; `stopped` pairs are not on the board.
public struct KorbitClient: ExchangeAPI {
    public struct Configuration: Sendable {
        public var baseURL: URL
        public var maxRetriesAfter429: Int

        public init(baseURL: URL, maxRetriesAfter429: Int = 3) {
            self.baseURL = baseURL
            self.maxRetriesAfter429 = maxRetriesAfter429
        }
    }

    public static let defaultURL = URL(string: "https://api.korbit.co.kr")!
    static let group: RateLimitGroup = "quotation"

    public let configuration: Configuration
    private let transport: any HTTPTransport
    private let limiter: RateLimiter
    public var requestCounts: [RateLimitGroup: UpstreamRequestCount] { limiter.requestCounts }

    public init(
        configuration: Configuration,
        transport: any HTTPTransport,
        limiter: RateLimiter = RateLimiter(limit: 40)
    ) {
        self.configuration = configuration
        self.transport = transport
        self.limiter = limiter
    }

    /// Tradable pairs. Korbit names no coin in Korean or English: the symbol stands in until
    /// the engine lends a name another exchange gives. Its market alerts (가격 급등락, 주문가격
    /// 제한, …) are the pairs' cautions, read before and after the pairs (`Market.agreeing`); best
    /// effort: without them the pairs' flags are unknown (never read as cleared).
    public func markets() async throws -> [Market] {
        let before = try? await get("/v2/marketAlerts", [:]) as [KorbitMarketAlertDTO]
        let pairs: [KorbitDTO.CurrencyPair] = try await get("/v2/currencyPairs", [:])
        // One reading alone is shown but not taken as the exchange's word.
        guard let before, let after = try? await get("/v2/marketAlerts", [:]) as [KorbitMarketAlertDTO] else {
            return Self.markets(pairs, alerts: before ?? []).map(\.flagsUnknown)
        }
        return Market.agreeing(Self.markets(pairs, alerts: before), Self.markets(pairs, alerts: after))
    }

    private static func markets(_ pairs: [KorbitDTO.CurrencyPair], alerts fetched: [KorbitMarketAlertDTO]) -> [Market] {
        let alerts = KorbitMarketAlertDTO.cautions(fetched)
        return pairs.compactMap { pair in
            guard pair.status?.lowercased() != "stopped", let id = KorbitSymbol.market(pair.symbol) else { return nil }
            let caution = alerts[id]
            return Market(
                id: id,
                koreanName: "",
                englishName: id.base,
                cautions: caution?.reasons ?? [],
                cautionLevel: caution?.level,
                cautionUntil: caution?.until
            )
        }
    }

    public func tickers(quotes: [QuoteCurrency]) async throws -> [Ticker] {
        guard quotes.contains(.krw) else { return [] }
        let rows: [KorbitDTO.Ticker] = try await get("/v2/tickers", [:])
        return rows.compactMap { try? $0.toTicker() }
    }

    /// An unknown symbol is simply absent (Korbit answers `{"success":true,"data":[]}`).
    public func tickers(markets: [MarketID]) async throws -> [Ticker] {
        guard !markets.isEmpty else { return [] }
        let rows: [KorbitDTO.Ticker] = try await get("/v2/tickers", ["symbol": markets.map(KorbitSymbol.symbol).joined(separator: ",")])
        return try rows.map { try $0.toTicker() }
    }

    /// Newest first, as every `ExchangeAPI` answers.
    public func candles(market: MarketID, unit: CandleUnit, count: Int, to: Date?) async throws -> [Candle] {
        guard let interval = Self.interval(unit) else {
            throw FeedError.badRequest(name: "interval", message: "Korbit has no \(unit.pathComponent) candles")
        }
        var query = ["symbol": KorbitSymbol.symbol(market), "interval": interval, "limit": String(min(max(count, 1), 200))]
        if let to { query["end"] = String(Int64(to.timeIntervalSince1970 * 1_000)) }
        let rows: [KorbitDTO.Candle] = try await get("/v2/candles", query)
        return rows.compactMap { row -> Candle? in
            typealias N = KorbitDTO.Ticker
            guard let open = N.number(row.open), let high = N.number(row.high), let low = N.number(row.low),
                let close = N.number(row.close)
            else { return nil }
            let volume = N.number(row.volume) ?? 0
            return Candle(
                market: market,
                start: Date(timeIntervalSince1970: Double(row.timestamp) / 1_000),
                open: open,
                high: high,
                low: low,
                close: close,
                volume: volume,
                value: volume * close,
                lastTradeAt: row.timestamp
            )
        }.sorted { $0.start > $1.start }
    }

    /// `GET /v2/orderbook?symbol=`: two sides of string numbers, best first (a stopped pair's are empty).
    public func orderbook(market: MarketID) async throws -> Orderbook {
        let book: KorbitDTO.Book = try await get("/v2/orderbook", ["symbol": KorbitSymbol.symbol(market)])
        func side(_ rows: [KorbitDTO.Book.Row]) throws -> [Orderbook.Quote] { try StringNumber.levels(rows.map { ($0.price, $0.qty) }) }
        return Orderbook(market: market, timestamp: book.timestamp, asks: try side(book.asks), bids: try side(book.bids))
    }

    /// `GET /v2/trades?symbol=&limit=`, newest first; `tradeId` is the trade's identity.
    public func trades(market: MarketID, count: Int) async throws -> [Trade] {
        let rows: [KorbitDTO.Trade] = try await get("/v2/trades", ["symbol": KorbitSymbol.symbol(market), "limit": String(min(max(count, 1), 500))])
        return try rows.map { try $0.toTrade(market) }.sorted { ($0.timestamp, $0.sequentialID) > ($1.timestamp, $1.sequentialID) }
    }

    /// Korbit's tick ladder is the KRW table Sise already knows.
    public func tickSizes(markets: [MarketID]) async throws -> [MarketID: Decimal] { [:] }

    /// Korbit's intervals: 1, 5, 15, 30, 60 and 240 minutes, a day, a week.
    public func serves(_ unit: CandleUnit) -> Bool { Self.interval(unit) != nil }

    static func interval(_ unit: CandleUnit) -> String? {
        switch unit {
        case .minutes(let n) where [1, 5, 15, 30, 60, 240].contains(n): String(n)
        case .days: "1D"
        case .weeks: "1W"
        default: nil
        }
    }

    /// Every coin's wallets per network (`/v2/currencies`, public).
    public func wallets() async throws -> [WalletStatus] {
        let rows: [KorbitCurrencyDTO] = try await get("/v2/currencies", [:])
        return rows.flatMap { $0.toWallets() }
    }

    /// The 20 newest notices (`/v2/notices`, public).
    public func notices() async throws -> [ExchangeNotice] {
        let rows: [KorbitNoticeDTO] = try await get("/v2/notices", [:])
        return rows.compactMap { $0.toNotice() }
    }

    // MARK: - Transport

    private func get<T: Decodable>(_ path: String, _ query: [String: String]) async throws -> T {
        let url = try RESTURL.make(configuration.baseURL, path, query)
        let response = try await limiter.send(
            url,
            in: Self.group,
            over: transport,
            retries: configuration.maxRetriesAfter429,
            remaining: { KorbitRateLimit.remaining($0.header("ratelimit")) }
        )
        switch response.status {
        case 200..<300:
            let envelope = try UpbitDecoding.decode(KorbitDTO.Envelope<T>.self, from: response.body, context: path)
            guard envelope.success, let data = envelope.data else {
                throw Self.error(status: envelope.error?.code ?? 400, message: envelope.error?.message)
            }
            return data
        default:
            let body = try? JSONDecoder().decode(KorbitDTO.Failure.self, from: response.body)
            throw Self.error(status: response.status, message: body?.error?.message)
        }
    }

    static func error(status: Int, message: String?) -> FeedError {
        let text = String((message ?? "").prefix(200))
        switch status {
        case 400: return .badRequest(name: text, message: text)
        case 401: return .unauthorized(name: text, message: text)
        case 403: return .forbidden(name: text, message: text)
        case 404: return .notFound(name: text, message: text)
        case 500...599: return .server(status: status)
        default: return .unexpectedStatus(status: status, message: text)
        }
    }
}

/// Korbit's `Ratelimit: limit=50, remaining=49, reset=1`.
enum KorbitRateLimit {
    static func remaining(_ header: String?) -> Int? {
        guard let header, header.utf8.count <= 200 else { return nil }
        for field in header.split(separator: ",") {
            let pair = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "remaining" { return Int(pair[1]) }
        }
        return nil
    }
}
