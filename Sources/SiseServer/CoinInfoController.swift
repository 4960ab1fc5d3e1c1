import Foundation
import Hummingbird
import SiseCharts
import SiseCore
import SiseEngine
import SiseFeeds
import SiseStore

/// Coin info: CoinGecko trending and search (through the cache that respects the free tier),
/// and coin detail with a chart — Upbit candles for Upbit markets, CoinGecko otherwise.
struct CoinInfoController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/trending", use: trending)
        router.get("/api/search", use: search)
        router.get("/api/coins/:id", use: coin)
        router.get("/api/coins/:id/chart.svg", use: chartSVG)
    }

    /// A cached answer with how fresh it is, and — when stale — a message saying when fresh data
    /// can come.
    struct Fresh<Value: Encodable & Sendable>: Encodable {
        let value: Value
        let fetchedAt: Int64
        let stale: Bool
        let retryAt: Int64?
        let message: String?

        enum Keys: String, CodingKey { case fetchedAt, stale, retryAt, message }

        func encode(to encoder: any Encoder) throws {
            try value.encode(to: encoder)
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(fetchedAt, forKey: .fetchedAt)
            try c.encode(stale, forKey: .stale)
            try c.encode(retryAt, forKey: .retryAt)
            try c.encode(message, forKey: .message)
        }

        init(_ cached: CoinInfoService.Cached<Value>, language: Language) {
            value = cached.value
            fetchedAt = cached.fetchedAt
            stale = cached.stale
            retryAt = cached.retryAt
            let asOf = KSTText.timestamp(cached.fetchedAt)
            if let retry = cached.retryAt {
                message = UIText.staleRateLimited(language, ["asOf": asOf, "at": KSTText.timestamp(retry)])
            } else if cached.stale {
                message = UIText.staleRefreshing(language, ["asOf": asOf])
            } else {
                message = nil
            }
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
        struct NFT: Encodable, Sendable {
            let nft: TrendingNFT
            let display: [String: String]
            func encode(to encoder: any Encoder) throws {
                try nft.encode(to: encoder)
                var c = encoder.container(keyedBy: Coin.Keys.self)
                try c.encode(display, forKey: .display)
            }
        }
        let coins: [Coin]
        let nfts: [NFT]
    }

    @Sendable func trending(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let cached = try await upstream(request) { try await context.coinInfo.trending() }
        let f = MarketFormatter(language: LanguagePreference.of(request))
        let view = TrendingView(
            coins: cached.value.coins.map { coin in
                TrendingView.Coin(
                    coin: coin,
                    display: [
                        "price": coin.priceKRW.map { f.price($0, quote: "KRW") } ?? "-",
                        "change": coin.change24h.map { f.rate($0 / 100) } ?? "-",
                        "tone": PriceChange(signed: coin.change24h ?? 0).tone.rawValue,
                    ]
                )
            },
            nfts: cached.value.nfts.map { nft in
                TrendingView.NFT(
                    nft: nft,
                    display: [
                        "floorPrice": f.floorPrice(nft.floorPrice, currency: nft.floorPriceCurrency),
                        "change": nft.floorPriceChange24h.map { f.rate($0 / 100) } ?? "-",
                        "tone": PriceChange(signed: nft.floorPriceChange24h ?? 0).tone.rawValue,
                    ]
                )
            }
        )
        return JSONText.response(
            Fresh(
                CoinInfoService.Cached(
                    value: view,
                    fetchedAt: cached.fetchedAt,
                    stale: cached.stale,
                    retryAt: cached.retryAt
                ),
                language: LanguagePreference.of(request)
            )
        )
    }

    @Sendable func search(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let q = CoinInfoService.normalizedQuery(request.uri.queryParameters["q"].map(String.init) ?? "")
        let korean = Hangul.isKorean(q)
        // One Hangul syllable already names coins (비 → 비트코인); a Latin letter does not.
        guard ((korean ? 1 : 2)...64).contains(q.count) else { throw APIError.badParameter(.search, .lengthCharacters(korean ? 1 : 2, 64)) }
        if korean { return JSONText.response(Fresh(koreanSearch(q), language: LanguagePreference.of(request))) }
        let client = ctx.clientIdentities
        return JSONText.response(
            Fresh(
                try await upstream(request) { try await context.coinInfo.search(q, client: client) },
                language: LanguagePreference.of(request)
            )
        )
    }

    /// A Korean query answered from the boards' Korean names (`SearchResults.korean`): CoinGecko
    /// is not asked, nor its budget spent.
    private func koreanSearch(_ query: String) -> CoinInfoService.Cached<SearchResults> {
        .init(value: .korean(query, in: context.boards.koreanListings), fetchedAt: context.clock.now, stale: false, retryAt: nil)
    }

    @Sendable func coin(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        JSONText.response(try await detail(request, ctx))
    }

    @Sendable func chartSVG(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let width = try ChartWidth.of(request)
        let detail = try await detail(request, ctx)
        return Response(
            status: .ok,
            headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: SVGChart.render(detail.chart, width: width, language: LanguagePreference.of(request))))
        )
    }

    private func upstream<T>(_ request: Request, _ body: () async throws -> T) async throws -> T {
        try await Self.upstream(request, body)
    }

    private func detail(_ request: Request, _ ctx: SiseRequestContext) async throws -> CoinDetail {
        let raw = ctx.parameters.get("id") ?? ""
        let rangeText = request.uri.queryParameters["range"].map(String.init) ?? "7d"
        guard let range = ChartModel.Range(rawValue: rangeText) else {
            throw APIError.badParameter(.range, .oneOf(ChartModel.Range.allCases.map(\.rawValue)))
        }
        let exchange = try ServerContext.exchange(request)
        // A market's detail reads its board's row: wake the board and wait for its first data
        // (a deep link to a Korbit coin on a fresh server would otherwise find no row).
        if CoinDetail.upbitMarket(raw) != nil { try await context.requireBoard(exchange) }
        let rows = try context.board(exchange).snapshot.rows
        let api = try context.api(exchange)
        do {
            return try await upstream(request) {
                try await CoinDetail.load(
                    raw,
                    range: range,
                    language: LanguagePreference.of(request),
                    exchange: exchange,
                    upbit: api,
                    coinInfo: context.coinInfo,
                    client: ctx.clientIdentities,
                    row: { rows[$0] }
                )
            }
        } catch let failure as CoinDetail.Failure {
            switch failure {
            case .badID: throw APIError.badParameter(.coin, .coinOrMarket)
            case .notFound(let what): throw APIError(status: .notFound, code: "not_found", UIText.coinNotFound, ["what": what])
            }
        }
    }

    /// Upstream failures become 503 with the message in the asker's language, never a 500.
    static func upstream<T>(_ request: Request, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as FeedError {
            if case .notFound = error { throw APIError.notFound(.missingCoin) }
            var retryAfter: Int?
            if case .rateLimited(let wait) = error { retryAfter = max(1, Int(wait.components.seconds) + 1) }
            throw APIError(status: .serviceUnavailable, code: "upstream", retryAfter: retryAfter) { error.message($0) }
        }
    }
}
