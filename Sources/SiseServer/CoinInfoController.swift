import Foundation
import Hummingbird
import SiseCharts
import SiseCore
import SiseEngine
import SiseFeeds

/// Coin info: CoinGecko trending and search (through the cache that respects the free tier),
/// and coin detail with a chart — Upbit candles for Upbit markets, CoinGecko otherwise.
struct CoinInfoController {
    let context: ServerContext

    func addRoutes(to router: Router<SiseRequestContext>) {
        router.get("/api/trending", use: trending)
        router.get("/api/search", use: search)
        router.get("/api/coins/:id", use: coin)
        router.get("/api/coins/:id/chart.svg", use: chartSVG)
    }

    /// A cached answer with how fresh it is.
    struct Fresh<Value: Encodable & Sendable>: Encodable {
        let value: Value
        let fetchedAt: Int64
        let stale: Bool
        let retryAt: Int64?

        enum Keys: String, CodingKey { case fetchedAt, stale, retryAt }

        func encode(to encoder: any Encoder) throws {
            try value.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(fetchedAt, forKey: .fetchedAt)
            try c.encode(stale, forKey: .stale)
            try c.encode(retryAt, forKey: .retryAt)
        }

        init(_ cached: CoinInfoService.Cached<Value>) {
            value = cached.value
            fetchedAt = cached.fetchedAt
            stale = cached.stale
            retryAt = cached.retryAt
        }
    }

    /// Trending with the strings the page shows, formatted here like every other price.
    struct TrendingView: Encodable, Sendable {
        struct Coin: Encodable, Sendable {
            let coin: TrendingCoin
            let display: [String: String]
            func encode(to encoder: any Encoder) throws {
                try coin.encode(to: encoder)
                var c = encoder.container(keyedBy: Keys.self)
                try c.encode(display, forKey: .display)
            }
            enum Keys: String, CodingKey { case display }
        }
        let coins: [Coin]
        let nfts: [TrendingNFT]
    }

    @Sendable func trending(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let cached = try await upstream { try await context.coinInfo.trending() }
        let f = MarketFormatter(language: LanguagePreference.of(request))
        let view = TrendingView(coins: cached.value.coins.map { coin in
            TrendingView.Coin(coin: coin, display: [
                "price": coin.priceKRW.map { f.price($0, quote: "KRW") } ?? "-",
                "change": coin.change24h.map { f.rate($0 / 100) } ?? "-",
            ])
        }, nfts: cached.value.nfts)
        return JSONText.response(Fresh(CoinInfoService.Cached(value: view, fetchedAt: cached.fetchedAt, stale: cached.stale,
                                                             retryAt: cached.retryAt)))
    }

    @Sendable func search(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let q = request.uri.queryParameters["q"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !q.isEmpty, q.count <= 100 else { throw APIError.badParameter("q", "1 to 100 characters") }
        return JSONText.response(Fresh(try await upstream { try await context.coinInfo.search(q) }))
    }

    /// What the detail page shows.
    struct Detail: Encodable {
        let id: String
        let source: String
        let name: String
        let symbol: String
        let range: String
        let price: Double?
        let change24h: Double?
        let high24h: Double?
        let low24h: Double?
        let allTimeHigh: Double?
        let allTimeHighDate: String?
        let allTimeLow: Double?
        let allTimeLowDate: String?
        let marketCap: Double?
        let marketCapRank: Int?
        let volume24h: Double?
        let lastUpdated: String?
        let display: [String: String]
        let points: [[Double]]
    }

    @Sendable func coin(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(try await detail(request, ctx).0)
    }

    @Sendable func chartSVG(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let (_, model) = try await detail(request, ctx)
        return Response(status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(string: SVGChart.render(model, language: LanguagePreference.of(request)))))
    }

    private func detail(_ request: Request, _ ctx: SiseRequestContext) async throws -> (Detail, ChartModel) {
        let raw = ctx.parameters.get("id") ?? ""
        let rangeText = request.uri.queryParameters["range"].map(String.init) ?? "7d"
        guard let range = ChartModel.Range(rawValue: rangeText) else { throw APIError.badParameter("range", "must be 1d, 7d, 30d or 1y") }
        let language = LanguagePreference.of(request)
        let formatter = MarketFormatter(language: language)
        if let market = MarketID(raw), market.quote == "KRW" || market.quote == "BTC" || market.quote == "USDT" {
            guard let row = context.board.snapshot.rows[market] else { throw APIError.notFound("market \(market.code)") }
            let points = try await upstream { try await UpbitChartPoints.load(context.upbit, market: market, range: range) }
            let model = ChartModel(points: points, range: range, quote: market.quote)
            let t = row.ticker
            let d = formatter.display(row)
            return (Detail(id: market.code, source: "upbit", name: row.market.name(in: language), symbol: row.market.symbol,
                           range: range.rawValue, price: t.price, change24h: t.signedChangeRate * 100, high24h: t.highPrice,
                           low24h: t.lowPrice, allTimeHigh: t.highest52WeekPrice, allTimeHighDate: t.highest52WeekDate,
                           allTimeLow: t.lowest52WeekPrice, allTimeLowDate: t.lowest52WeekDate, marketCap: nil, marketCapRank: nil,
                           volume24h: t.tradeValue24h, lastUpdated: KST.timestamp(t.timestamp),
                           display: [
                               "price": d.price, "changeRate": d.changeRate, "changePrice": d.changePrice, "tradeValue": d.tradeValue,
                               "high24h": formatter.price(t.highPrice, quote: market.quote, tick: row.tickSize),
                               "low24h": formatter.price(t.lowPrice, quote: market.quote, tick: row.tickSize),
                               "ath": t.highest52WeekPrice.map { formatter.price($0, quote: market.quote, tick: row.tickSize) + " (52w, " + (t.highest52WeekDate ?? "-") + ")" } ?? "-",
                               "atl": t.lowest52WeekPrice.map { formatter.price($0, quote: market.quote, tick: row.tickSize) + " (52w, " + (t.lowest52WeekDate ?? "-") + ")" } ?? "-",
                               "lastUpdated": KST.timestamp(t.timestamp),
                           ],
                           points: model.points.map { [Double($0.time), $0.price] }), model)
        }
        guard raw.count <= 100, raw.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }),
              !raw.isEmpty else {
            throw APIError.badParameter("id", "a CoinGecko id (bitcoin) or an Upbit market (KRW-BTC)")
        }
        async let marketsCall = upstream { try await context.coinInfo.markets(ids: [raw]) }
        async let chartCall = upstream { try await context.coinInfo.chart(id: raw, days: range.days) }
        guard let market = try await marketsCall.value.first else { throw APIError.notFound("coin \(raw)") }
        let model = ChartModel(points: (try? await chartCall.value) ?? [], range: range)
        let krw = { (value: Double?) in value.map { formatter.price($0, quote: "KRW") } }
        var display: [String: String] = ["price": krw(market.price) ?? "-",
                                         "changeRate": market.change24h.map { formatter.rate($0 / 100) } ?? "-"]
        display["high24h"] = krw(market.high24h)
        display["low24h"] = krw(market.low24h)
        display["ath"] = krw(market.allTimeHigh).map { $0 + " (" + String((market.allTimeHighDate ?? "").prefix(10)) + ")" }
        display["atl"] = krw(market.allTimeLow).map { $0 + " (" + String((market.allTimeLowDate ?? "").prefix(10)) + ")" }
        display["marketCap"] = market.marketCap.map { formatter.tradeValue($0, quote: "KRW") + (market.marketCapRank.map { " (#\($0))" } ?? "") }
        display["tradeValue"] = market.volume24h.map { formatter.tradeValue($0, quote: "KRW") }
        display["lastUpdated"] = market.lastUpdated.flatMap(KST.fromISO)
        return (Detail(id: market.id, source: "coingecko", name: market.name, symbol: market.symbol, range: range.rawValue,
                       price: market.price, change24h: market.change24h, high24h: market.high24h, low24h: market.low24h,
                       allTimeHigh: market.allTimeHigh, allTimeHighDate: market.allTimeHighDate, allTimeLow: market.allTimeLow,
                       allTimeLowDate: market.allTimeLowDate, marketCap: market.marketCap, marketCapRank: market.marketCapRank,
                       volume24h: market.volume24h, lastUpdated: market.lastUpdated, display: display,
                       points: model.points.map { [Double($0.time), $0.price] }), model)
    }

    /// Upstream failures become 503 with the user's message, never a 500.
    private func upstream<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as FeedError {
            if case .notFound = error { throw APIError.notFound("coin") }
            throw APIError(status: .serviceUnavailable, code: "upstream", message: error.message(.en))
        }
    }
}

/// `2026-11-22 09:24:01 KST`.
enum KST {
    /// CoinGecko's ISO-8601 times (`2026-02-17T15:56:31.631Z`) in KST.
    static func fromISO(_ text: String) -> String? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text) else { return nil }
        return timestamp(Int64(date.timeIntervalSince1970 * 1_000))
    }

    static func timestamp(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'KST'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1_000))
    }
}
