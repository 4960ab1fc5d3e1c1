import Foundation
import Hummingbird
import SiseCore
import SiseEngine

/// 호가 and 체결 over REST: `GET /api/orderbook/{market}?exchange=&levels=` (`OrderbookJSON`) and
/// `GET /api/trades/{market}?exchange=&count=` (`[TradeJSON]`, newest first, each trade once) and
/// `GET /api/tape/{market}?exchange=&count=` (`TapeJSON`: the same trades with 체결강도, as the
/// page's socket sends them).
/// The market passes the one listing rule; a book that is not consistent is never answered — it
/// is counted (`sise_orderbook_dropped_total{exchange,reason}`) and the answer is a 503.
struct OrderbookController {
    let context: ServerContext
    let metrics: ServerMetrics

    func addRoutes(to router: some RouterMethods<SiseRequestContext>) {
        router.get("/api/orderbook/{market}", use: orderbook)
        router.get("/api/trades/{market}", use: trades)
        router.get("/api/tape/{market}", use: tape)
    }

    @Sendable func orderbook(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let levels = try Self.number(request, .levels, default: 15, in: 1...30)
        let (exchange, market) = try target(request, ctx)
        let api = try context.api(exchange)
        let book = try await CoinInfoController.upstream(request) { try await api.orderbook(market: market) }
        do {
            return JSONText.response(
                OrderbookJSON(
                    try book.checked().top(levels),
                    exchange: exchange,
                    formatter: MarketFormatter(language: LanguagePreference.of(request))
                )
            )
        } catch {
            metrics.droppedBook(exchange: exchange.rawValue, reason: "\(error)")
            throw APIError(
                status: .serviceUnavailable,
                code: "upstream",
                UIText.orderbookInconsistent,
                retryAfter: 1
            )
        }
    }

    @Sendable func trades(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let (_, _, trades) = try await read(request, ctx)
        let formatter = MarketFormatter(language: LanguagePreference.of(request))
        return JSONText.response(trades.map { TradeJSON($0, formatter: formatter) })
    }

    @Sendable func tape(_ request: Request, _ ctx: SiseRequestContext) async throws -> Response {
        let (exchange, market, trades) = try await read(request, ctx)
        return JSONText.response(
            TapeJSON(trades, exchange: exchange, market: market, formatter: MarketFormatter(language: LanguagePreference.of(request)))
        )
    }

    /// The market's last `count` trades, newest first, each once.
    private func read(_ request: Request, _ ctx: SiseRequestContext) async throws -> (Exchange, MarketID, [Trade]) {
        let count = try Self.number(request, .count, default: 30, in: 1...TradeTape.limit)
        let (exchange, market) = try target(request, ctx)
        let api = try context.api(exchange)
        let trades = try await CoinInfoController.upstream(request) { try await api.trades(market: market, count: count) }
        return (exchange, market, TradeTape.newestFirst(trades, limit: count))
    }

    /// The exchange and a market it lists (400 / 404 as every face refuses it).
    private func target(_ request: Request, _ ctx: SiseRequestContext) throws -> (Exchange, MarketID) {
        let raw = ctx.parameters.get("market") ?? ""
        guard raw.count <= 24, let market = MarketID(raw.uppercased()) else { throw APIError.badParameter(.market, .marketCode) }
        let exchange = try ServerContext.exchange(request)
        try context.board(exchange).touch()
        try context.requireListed(market, on: exchange)
        return (exchange, market)
    }

    private static func number(_ request: Request, _ name: ParameterRefusal.Parameter, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = request.uri.queryParameters[Substring(name.rawValue)].map(String.init), !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw APIError.badParameter(name, .between(range.lowerBound, range.upperBound))
        }
        return number
    }
}
