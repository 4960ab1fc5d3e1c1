import Foundation
import Hummingbird
import SiseCharts
import SiseCore
import SiseEngine

/// Candles with indicators: `GET /api/candles/{market}?interval=1h&count=100&exchange=upbit`
/// (`{"exchange","market","interval","candles":[…]}` oldest first) and the chart drawn by Sise,
/// `GET /api/candles/{market}/chart.svg?interval=1h&indicators=ma,bb,rsi`. The newest candle
/// carries the live price.
struct CandlesController {
    let context: ServerContext

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/candles/{market}", use: json)
        router.get("/api/candles/{market}/chart.svg", use: chart)
    }

    struct Answer: Encodable {
        let exchange: String
        let market: String
        let interval: String
        let candles: [CandleRowJSON]
    }

    /// The most candles one request fetches (and indicators warm up on).
    static let fetched = 200

    @Sendable func json(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let (exchange, market, interval, series) = try await load(request, ctx)
        return JSONText.response(
            Answer(
                exchange: exchange.rawValue,
                market: market.code,
                interval: interval.rawValue,
                candles: series.rows.map(CandleRowJSON.init)
            )
        )
    }

    @Sendable func chart(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let width = try ChartWidth.of(request)
        let list = request.uri.queryParameters["indicators"].map(String.init) ?? "ma"
        guard let options = CandleChart.Options(list: list) else {
            throw APIError.badParameter(.indicators, .listOf(["ma", "ema", "bb", "rsi", "macd"]))
        }
        let (_, market, interval, series) = try await load(request, ctx)
        let svg = CandleChart.svg(
            series,
            interval: interval,
            quote: market.quote,
            options: options,
            width: width,
            language: LanguagePreference.of(request)
        )
        return Response(
            status: .ok,
            headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: svg))
        )
    }

    private func load(_ request: Request, _ ctx: SiseRequestContext) async throws -> (Exchange, MarketID, CandleInterval, CandleSeries) {
        let raw = ctx.parameters.get("market") ?? ""
        guard let market = MarketID(raw.uppercased()), raw.count <= 24 else { throw APIError.badParameter(.market, .marketCode) }
        let intervalText = request.uri.queryParameters["interval"].map(String.init) ?? "1h"
        guard let interval = CandleInterval(rawValue: intervalText) else {
            throw APIError.badParameter(.interval, .oneOf(CandleInterval.allCases.map(\.rawValue)))
        }
        let countText = request.uri.queryParameters["count"].map(String.init) ?? "100"
        guard let count = Int(countText), (1...Self.fetched).contains(count) else { throw APIError.badParameter(.count, .between(1, Self.fetched)) }
        let exchange = try ServerContext.exchange(request)
        let board = try context.board(exchange)
        board.touch()
        try context.requireListed(market, on: exchange)
        let api = try context.api(exchange)
        var candles = try await CoinInfoController.upstream(request) {
            try await api.candles(market: market, unit: interval.unit, count: Self.fetched, to: nil)
        }
        if let row = board.snapshot.rows[market] {
            candles = CandleSeries.withLive(candles, price: row.ticker.price, at: context.clock.now, interval: interval)
        }
        return (exchange, market, interval, CandleSeries(candles: candles, last: count))
    }
}
