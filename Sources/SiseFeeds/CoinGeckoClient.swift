import Foundation
import SiseCore

/// The live `CoinGeckoAPI` over an `HTTPTransport`: the key (if any) in the plan's header,
/// typed errors for all three error-body shapes, 429 with its Retry-After, and the rate-limit
/// body that sometimes arrives with HTTP 200.
public struct CoinGeckoClient: CoinGeckoAPI {
    public struct Configuration: Sendable {
        public static let defaultURL = URL(string: "https://api.coingecko.com/api/v3")!
        public var baseURL: URL
        public var key: String?
        public var plan: CoinGeckoPlan

        public init(baseURL: URL = Configuration.defaultURL, key: String? = nil, plan: CoinGeckoPlan = .demo) {
            self.baseURL = baseURL
            self.key = key
            self.plan = plan
        }
    }

    public let configuration: Configuration
    private let transport: any HTTPTransport

    public init(configuration: Configuration = .init(), transport: any HTTPTransport) {
        self.configuration = configuration
        self.transport = transport
    }

    public func trending(krwPerUSD: Double?) async throws -> Trending {
        let dto: CoinGeckoTrendingDTO = try await get("/search/trending", [:])
        let coins = (dto.coins ?? []).enumerated().map { index, entry in
            let c = entry.item
            let usd = c.data?.price?.value
            return TrendingCoin(
                id: c.id,
                name: c.name,
                symbol: c.symbol.uppercased(),
                rank: index + 1,
                marketCapRank: c.market_cap_rank,
                thumb: c.thumb ?? c.small ?? "",
                priceUSD: usd,
                priceKRW: zip2(usd, krwPerUSD).map { $0 * $1 },
                change24h: c.data?.price_change_percentage_24h?["krw"] ?? c.data?.price_change_percentage_24h?["usd"]
            )
        }
        let nfts = (dto.nfts ?? []).map { n in
            TrendingNFT(
                id: n.id,
                name: n.name,
                symbol: n.symbol ?? "",
                thumb: n.thumb ?? "",
                floorPrice: n.floor_price_in_native_currency?.value,
                floorPriceCurrency: n.native_currency_symbol?.uppercased(),
                floorPriceChange24h: n.floor_price_24h_percentage_change?.value
            )
        }
        return Trending(coins: coins, nfts: nfts)
    }

    public func search(_ query: String) async throws -> SearchResults {
        let dto: CoinGeckoSearchDTO = try await get("/search", ["query": query])
        return SearchResults(
            coins: (dto.coins ?? []).map {
                SearchHit(id: $0.id, name: $0.name, symbol: $0.symbol, marketCapRank: $0.market_cap_rank, thumb: $0.thumb ?? "")
            },
            nfts: (dto.nfts ?? []).map { SearchHit(id: $0.id.text, name: $0.name, symbol: $0.symbol, marketCapRank: nil, thumb: $0.thumb ?? "") },
            exchanges: (dto.exchanges ?? []).map { SearchHit(id: $0.id, name: $0.name, symbol: nil, marketCapRank: nil, thumb: $0.thumb ?? "") }
        )
    }

    public func krwPerUSD() async throws -> Double {
        let dto: CoinGeckoExchangeRatesDTO = try await get("/exchange_rates", [:])
        guard let krw = dto.rates["krw"]?.value, let usd = dto.rates["usd"]?.value, usd > 0 else {
            throw FeedError.malformedPayload(context: "/exchange_rates: no krw or usd rate")
        }
        return krw / usd
    }

    public func markets(ids: [String]) async throws -> [CoinMarket] {
        guard !ids.isEmpty else { return [] }
        let rows: [CoinGeckoMarketDTO] = try await get(
            "/coins/markets",
            [
                "vs_currency": "krw", "ids": ids.joined(separator: ","), "sparkline": "true", "price_change_percentage": "24h",
            ]
        )
        return rows.map { r in
            CoinMarket(
                id: r.id,
                symbol: r.symbol.uppercased(),
                name: r.name,
                image: r.image,
                price: r.current_price,
                marketCap: r.market_cap,
                marketCapRank: r.market_cap_rank,
                volume24h: r.total_volume,
                high24h: r.high_24h,
                low24h: r.low_24h,
                change24h: r.price_change_percentage_24h,
                allTimeHigh: r.ath,
                allTimeHighDate: r.ath_date,
                allTimeLow: r.atl,
                allTimeLowDate: r.atl_date,
                lastUpdated: r.last_updated,
                sparkline: (r.sparkline_in_7d?.price ?? []).compactMap { $0 }
            )
        }
    }

    public func chart(id: String, days: Int) async throws -> [PricePoint] {
        let dto: CoinGeckoChartDTO = try await get("/coins/\(id)/market_chart", ["vs_currency": "krw", "days": String(days)])
        return dto.prices.compactMap { pair in
            guard pair.count >= 2, let time = ExactTime.milliseconds(pair[0]), pair[1].isFinite else { return nil }
            return PricePoint(time: time, price: pair[1])
        }
    }

    public func coin(id: String) async throws -> CoinMarket {
        let dto: CoinGeckoCoinDTO = try await get(
            "/coins/\(id)",
            [
                "localization": "false", "tickers": "false", "community_data": "false", "developer_data": "false", "sparkline": "false",
            ]
        )
        return dto.toMarket()
    }

    public func simplePrice(ids: [String]) async throws -> [SimplePrice] {
        guard !ids.isEmpty else { return [] }
        let body = try await data(
            "/simple/price",
            [
                "ids": ids.joined(separator: ","), "vs_currencies": "krw,usd", "include_24hr_change": "true", "include_last_updated_at": "true",
            ]
        )
        return try SimplePriceDecoding.decode(body)
    }

    public func ranking(currency: RankingCurrency, page: Int, perPage: Int) async throws -> [RankedCoin] {
        let rows: [CoinGeckoMarketDTO] = try await get(
            "/coins/markets",
            [
                "vs_currency": currency.rawValue, "order": "market_cap_desc", "per_page": String(perPage), "page": String(page),
                "sparkline": "true", "price_change_percentage": "1h,24h,7d",
            ]
        )
        return rows.map { r in
            RankedCoin(
                id: r.id,
                symbol: r.symbol.uppercased(),
                name: r.name,
                image: r.image,
                rank: r.market_cap_rank,
                price: r.current_price.flatMap(finite),
                change1h: r.price_change_percentage_1h_in_currency.flatMap(finite),
                change24h: (r.price_change_percentage_24h_in_currency ?? r.price_change_percentage_24h).flatMap(finite),
                change7d: r.price_change_percentage_7d_in_currency.flatMap(finite),
                marketCap: r.market_cap.flatMap(finite),
                volume24h: r.total_volume.flatMap(finite),
                sparkline: (r.sparkline_in_7d?.price ?? []).compactMap { $0.flatMap(finite) }
            )
        }
    }

    public func global() async throws -> GlobalMarket {
        let dto: CoinGeckoGlobalDTO = try await get("/global", [:])
        let d = dto.data
        return GlobalMarket(
            totalMarketCap: (d.total_market_cap ?? [:]).filter { $0.value.isFinite },
            totalVolume: (d.total_volume ?? [:]).filter { $0.value.isFinite },
            dominance: (d.market_cap_percentage ?? [:]).filter { $0.value.isFinite },
            marketCapChange24h: d.market_cap_change_percentage_24h_usd.flatMap(finite),
            activeCryptocurrencies: d.active_cryptocurrencies,
            markets: d.markets,
            updatedAt: d.updated_at
        )
    }

    // MARK: - Transport

    private func get<T: Decodable>(_ path: String, _ query: [String: String]) async throws -> T {
        try UpbitDecoding.decode(T.self, from: try await data(path, query), context: path)
    }

    /// The body of a successful answer; every error shape (and a 429 inside a 200) thrown typed.
    private func data(_ path: String, _ query: [String: String]) async throws -> Data {
        var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: false)!
        let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = base + path
        if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) } }
        guard let url = components.url else { throw FeedError.malformedPayload(context: "bad URL for \(path)") }
        var headers: [(String, String)] = []
        if let key = configuration.key, !key.isEmpty { headers.append((configuration.plan.header, key)) }
        let response = try await transport.get(url, headers: headers)
        let error = try? JSONDecoder().decode(CoinGeckoErrorDTO.self, from: response.body)
        if response.status == 429 || error?.code == 429 {
            throw FeedError.rateLimited(retryAfter: RetryAfter.parse(response.header("retry-after")) ?? .seconds(60))
        }
        switch response.status {
        case 200..<300:
            if let code = error?.code { throw Self.map(status: code, message: error?.message ?? "") }
            return response.body
        default:
            throw Self.map(status: response.status, message: error?.message ?? String(decoding: response.body.prefix(120), as: UTF8.self))
        }
    }

    static func map(status: Int, message: String) -> FeedError {
        switch status {
        case 400: .badRequest(name: "400", message: message)
        case 401, 10002, 10010, 10011: .unauthorized(name: String(status), message: message)
        case 403: .forbidden(name: "403", message: message)
        case 404: .notFound(name: "404", message: message)
        case 500...599: .server(status: status)
        default: .unexpectedStatus(status: status, message: message)
        }
    }
}

/// A number a face can show; nil for NaN or infinity.
private func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }

private func zip2(_ a: Double?, _ b: Double?) -> (Double, Double)? {
    guard let a, let b else { return nil }
    return (a, b)
}
