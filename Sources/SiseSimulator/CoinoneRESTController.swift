import Foundation
import HTTPTypes
import Hummingbird

/// Coinone's public REST v2 on the simulator, under `/coinone/public/v2`: markets, `ticker_new`,
/// order book, trades, chart and currencies for KRW pairs (other quotes answer empty lists, as
/// Coinone's do); errors with HTTP 200 and a `result` of `error`; 20 requests a second.
struct CoinoneRESTController: Sendable {
    let exchange: SimExchange
    /// Its wallets' switches (`/currencies` says them: one row per coin, no network).
    let wallets: SimWallets
    static let root = "/coinone/public/v2"

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("\(Self.root)/markets/:quote") { request, context in try await serve(request) { try markets(context) } }
        router.get("\(Self.root)/ticker_new/:quote") { request, context in try await serve(request) { try tickers(context, target: nil) } }
        router.get("\(Self.root)/ticker_new/:quote/:target") { request, context in
            try await serve(request) { try tickers(context, target: try pair(context).market) }
        }
        router.get("\(Self.root)/orderbook/:quote/:target") { request, context in try await serve(request) { try orderbook(request, context) } }
        router.get("\(Self.root)/trades/:quote/:target") { request, context in try await serve(request) { try trades(request, context) } }
        router.get("\(Self.root)/chart/:quote/:target") { request, context in try await serve(request) { try chart(request, context) } }
        router.get("\(Self.root)/currencies") { request, _ in try await serve(request) { currencies() } }
    }

    struct Failure: Error {
        let code: String
        let message: String
        static let unknownCoin = Failure(code: "108", message: "Unknown CryptoCurrency")
        static let badParameter = Failure(code: "107", message: "Parameter value is wrong")
    }

    private func serve(_ request: Request, _ handler: () throws -> String) async throws -> Response {
        switch exchange.gate("public") {
        case .fail(let status, _, _):
            // A refusal is Coinone's error 4 (HTTP 200); a server fault keeps its status.
            if status == 429 || status == 418 { return SimResponses.json(CoinoneWriter.error("4", "Blocked user access")) }
            return SimResponses.json(CoinoneWriter.error("405", "Server error"), status: HTTPResponse.Status(code: status))
        case .proceed(_, let malformed):
            let latency = exchange.faults.latencyMs
            if latency > 0 { try await Task.sleep(for: .milliseconds(latency)) }
            do {
                var body = try handler()
                if malformed { body = String(body.prefix(max(1, body.count / 2))) }
                return SimResponses.json(body)
            } catch let failure as Failure {
                return SimResponses.json(CoinoneWriter.error(failure.code, failure.message))
            }
        }
    }

    private var listed: [SimMarket] {
        let delisted = Set(exchange.faults.delisted)
        return exchange.universe.markets.filter { !delisted.contains($0.code) }
    }

    /// Listed pairs of the path's quote (case-insensitive, as Coinone's paths are).
    private func quoted(_ context: SimRequestContext) -> [SimMarket] {
        let quote = context.parameters.get("quote")?.uppercased() ?? ""
        return listed.filter { $0.quote == quote }
    }

    private func pair(_ context: SimRequestContext) throws -> (market: SimMarket, rank: Int) {
        let target = context.parameters.get("target")?.uppercased() ?? ""
        guard let market = quoted(context).first(where: { $0.base == target }),
            let rank = exchange.universe.markets.firstIndex(where: { $0.code == market.code })
        else { throw Failure.unknownCoin }
        return (market, rank)
    }

    private func markets(_ context: SimRequestContext) throws -> String {
        var json = JSONWriter(capacity: 60_000)
        json.beginArray()
        for market in quoted(context) {
            json.beginObject()
            json.field("quote_currency", market.quote)
            json.field("target_currency", market.base)
            json.field("qty_unit", "0.0001")
            json.field("min_order_amount", "5000")
            json.field("maintenance_status", int: 0)
            json.field("trade_status", int: 1)
            json.endObject()
        }
        json.endArray()
        return CoinoneWriter.success(#""server_time":\#(Int64(exchange.now * 1_000)),"markets":"# + json.text)
    }

    private func tickers(_ context: SimRequestContext, target: SimMarket?) throws -> String {
        let ms = Int64(exchange.now * 1_000)
        let chosen = target.map { [$0] } ?? quoted(context)
        var json = JSONWriter(capacity: chosen.count * 420)
        json.beginArray()
        for market in chosen { CoinoneWriter.ticker(market, exchange.ticker(market, atMilliseconds: ms), into: &json) }
        json.endArray()
        return CoinoneWriter.success(#""server_time":\#(ms),"tickers":"# + json.text)
    }

    /// `size` ∈ 5, 10, 15, 16 (else 107); bids descending, asks ascending.
    private func orderbook(_ request: Request, _ context: SimRequestContext) throws -> String {
        let (market, _) = try pair(context)
        let sizeText = request.uri.queryParameters["size"].map(String.init) ?? "15"
        guard let size = Int(sizeText), [5, 10, 15, 16].contains(size) else { throw Failure.badParameter }
        let ms = Int64(exchange.now * 1_000)
        let (asks, bids) = SimBook.book(
            market,
            price: exchange.ticker(market, atMilliseconds: ms).price,
            at: ms,
            levels: size,
            crossed: exchange.faults.crossedBooks
        )
        var json = JSONWriter()
        json.beginObject()
        json.field("result", "success")
        json.field("error_code", "0")
        json.field("timestamp", int: ms)
        json.field("id", "\(ms)001")
        json.field("quote_currency", market.quote)
        json.field("target_currency", market.base)
        json.field("order_book_unit", "0.0")
        for (name, side) in [("bids", bids), ("asks", asks)] {
            json.key(name)
            json.beginArray()
            for level in side {
                json.beginObject()
                json.field("price", CoinoneWriter.text(level.price))
                json.field("qty", CoinoneWriter.text(level.size))
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
        return json.text
    }

    /// `size` ∈ 10, 50, 100, 150, 200 (default 200); newest first.
    private func trades(_ request: Request, _ context: SimRequestContext) throws -> String {
        let (market, _) = try pair(context)
        let sizeText = request.uri.queryParameters["size"].map(String.init) ?? "200"
        guard let size = Int(sizeText), [10, 50, 100, 150, 200].contains(size) else { throw Failure.badParameter }
        let ms = Int64(exchange.now * 1_000)
        var json = JSONWriter()
        json.beginArray()
        for trade in SimBook.trades(market, on: exchange, count: size, now: ms) {
            json.beginObject()
            json.field("id", String(trade.id))
            json.field("timestamp", int: trade.at)
            json.field("price", CoinoneWriter.text(trade.price))
            json.field("qty", CoinoneWriter.text(trade.size))
            // The seller's order rested, so the taker bought.
            json.field("is_seller_maker", trade.buy)
            json.endObject()
        }
        json.endArray()
        return CoinoneWriter.success(
            #""server_time":\#(ms),"quote_currency":"\#(market.quote)","target_currency":"\#(market.base)","transactions":"# + json.text
        )
    }

    /// `interval` required (1m … 1mon); `timestamp` the last candle wanted (ms); `size` 1–500;
    /// candles newest first.
    private func chart(_ request: Request, _ context: SimRequestContext) throws -> String {
        let (market, _) = try pair(context)
        let units: [String: SimCandleWriter.Unit] = [
            "1m": .minutes(1), "3m": .minutes(3), "5m": .minutes(5), "15m": .minutes(15),
            "30m": .minutes(30), "1h": .minutes(60), "4h": .minutes(240), "1d": .days,
            "1w": .weeks, "1mon": .months,
        ]
        guard let unit = units[request.uri.queryParameters["interval"].map(String.init) ?? ""] else { throw Failure.badParameter }
        let size = min(max(Int(request.uri.queryParameters["size"].map(String.init) ?? "") ?? 200, 1), 500)
        let now = exchange.now
        let last = request.uri.queryParameters["timestamp"].flatMap { Double(String($0)) }.map { min($0 / 1_000, now) } ?? now
        var json = JSONWriter(capacity: size * 200)
        json.beginArray()
        var cursor = last
        for _ in 0..<size {
            let (start, end) = SimCandleWriter.bucket(containing: cursor, unit: unit)
            let c = SimCandleWriter.ohlc(market: market, start: start, end: end, now: now)
            json.beginObject()
            json.field("timestamp", int: Int64(start) * 1_000)
            json.field("open", CoinoneWriter.text(c.open))
            json.field("high", CoinoneWriter.text(c.high))
            json.field("low", CoinoneWriter.text(c.low))
            json.field("close", CoinoneWriter.text(c.close))
            json.field("target_volume", CoinoneWriter.text(c.value / max(c.close, 1e-12)))
            json.field("quote_volume", CoinoneWriter.text(c.value))
            json.endObject()
            cursor = Double(start) - 0.001
        }
        json.endArray()
        return CoinoneWriter.success(#""is_last":false,"chart":"# + json.text)
    }

    /// English names only (Coinone has no Korean ones), and each coin's wallet: `normal` or
    /// `suspended` as the switches say, its fee worth about ₩1,000.
    private func currencies() -> String {
        var json = JSONWriter(capacity: 60_000)
        json.beginArray()
        for market in listed where market.quote == "KRW" {
            let network = SimWallets.networks(market.base).first?.id ?? market.base
            let (deposit, withdraw) = wallets.open(.coinone, market.base, network)
            let fee = SimWallets.fee(market.basePrice)
            json.beginObject()
            json.field("name", market.english)
            json.field("symbol", market.base)
            json.field("deposit_status", deposit ? "normal" : "suspended")
            json.field("withdraw_status", withdraw ? "normal" : "suspended")
            json.field("deposit_fee", "0.0")
            json.field("withdrawal_min_amount", fee)
            json.field("withdrawal_fee", fee)
            json.endObject()
        }
        json.endArray()
        wallets.count(.coinone)
        return CoinoneWriter.success(#""server_time":\#(Int64(exchange.now * 1_000)),"currencies":"# + json.text)
    }
}
