import Foundation
import HTTPTypes
import Hummingbird

/// Korbit's public REST v2 on the simulator: `/v2/currencyPairs`, `/v2/tickers`, `/v2/candles`,
/// `/v2/time`; 50 requests a second per address (`Ratelimit` headers, 429 + `Retry-After`),
/// the same fault switches as every venue.
struct KorbitRESTController: Sendable {
    let exchange: SimExchange

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("/v2/currencyPairs") { request, _ in try await serve(request) { currencyPairs() } }
        router.get("/v2/marketAlerts") { request, _ in try await serve(request) { marketAlerts() } }
        router.get("/v2/tickers") { request, _ in try await serve(request) { try tickers(request) } }
        router.get("/v2/candles") { request, _ in try await serve(request) { try candles(request) } }
        router.get("/v2/orderbook") { request, _ in try await serve(request) { try orderbook(request) } }
        router.get("/v2/trades") { request, _ in try await serve(request) { try trades(request) } }
        router.get("/v2/time") { request, _ in
            try await serve(request) { KorbitWriter.envelope(#"{"time":\#(Int64(exchange.now * 1_000))}"#) }
        }
    }

    struct Failure: Error {
        let status: Int
        let code: String
    }

    private func serve(_ request: Request, _ handler: () throws -> String) async throws -> Response {
        switch exchange.gate("quotation") {
        case .fail(let status, let remaining, let retryAfter):
            var headers = Self.limitHeaders(remaining)
            if status == 429 || status == 418 { headers[.retryAfter] = String(retryAfter ?? 1) }
            let code = status == 429 || status == 418 ? "TOO_MANY_REQUESTS" : "INTERNAL_SERVER_ERROR"
            return SimResponses.json(
                KorbitWriter.error(status == 418 ? 429 : status, code),
                status: HTTPResponse.Status(code: status == 418 ? 429 : status),
                headers: headers
            )
        case .proceed(let remaining, let malformed):
            let latency = exchange.faults.latencyMs
            if latency > 0 { try await Task.sleep(for: .milliseconds(latency)) }
            let headers = Self.limitHeaders(remaining)
            do {
                var body = try handler()
                if malformed { body = String(body.prefix(max(1, body.count / 2))) }
                return SimResponses.json(body, headers: headers)
            } catch let failure as Failure {
                return SimResponses.json(
                    KorbitWriter.error(failure.status, failure.code),
                    status: HTTPResponse.Status(code: failure.status),
                    headers: headers
                )
            }
        }
    }

    static func limitHeaders(_ remaining: Int) -> HTTPFields {
        var headers = HTTPFields()
        headers[HTTPField.Name("Ratelimit")!] = "limit=50, remaining=\(remaining), reset=1"
        headers[HTTPField.Name("Ratelimit-Policy")!] = "50;w=1"
        return headers
    }

    private var listed: [(market: SimMarket, rank: Int)] {
        let delisted = Set(exchange.faults.delisted)
        return exchange.universe.markets.enumerated().compactMap { rank, market in
            delisted.contains(market.code) ? nil : (market, rank)
        }
    }

    private func currencyPairs() -> String {
        var json = JSONWriter(capacity: 40_000)
        json.beginArray()
        for (market, rank) in listed {
            json.beginObject()
            json.field("symbol", KorbitWriter.symbol(market))
            json.field("status", KorbitWriter.isStopped(market, rank: rank) ? "stopped" : "launched")
            json.field("baseCurrency", market.base.lowercased())
            json.field("quoteCurrency", market.quote.lowercased())
            json.field("minOrderValue", "5000")
            json.field("maxOrderValue", "1000000000")
            json.endObject()
        }
        json.endArray()
        return KorbitWriter.envelope(json.text)
    }

    /// The pairs with a caution as Korbit alerts them: a price one (투자위험) for price swings, a
    /// concentration one (no level) otherwise; ending at the next KST midnight.
    private func marketAlerts() -> String {
        let now = Int64(exchange.now * 1_000)
        let end = (now / 86_400_000 + 1) * 86_400_000 - 9 * 3_600_000
        var rows: [String] = []
        for (market, _) in listed {
            let flag = exchange.flag(market)
            guard !flag.cautions.isEmpty else { continue }
            let price = flag.cautions.contains("PRICE_FLUCTUATIONS")
            let alert =
                price
                ? #"{"type":"price","typeKorean":"가격 급등락","level":"danger","levelKorean":"투자위험","startAt":\#(now - 3_600_000),"endAt":\#(end),"value":"25.5"}"#
                : #"{"type":"concentration","typeKorean":"거래 집중","startAt":\#(now - 3_600_000),"endAt":\#(end),"value":"1"}"#
            rows.append(#"{"symbol":"\#(KorbitWriter.symbol(market))","alerts":[\#(alert)]}"#)
        }
        return KorbitWriter.envelope("[" + rows.joined(separator: ",") + "]")
    }

    private func tickers(_ request: Request) throws -> String {
        var chosen = listed
        if let list = request.uri.queryParameters["symbol"].map(String.init), !list.isEmpty {
            let symbols = list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            // Symbols are case-sensitive; an upper-case one is malformed, an unknown one simply absent.
            if symbols.contains(where: { $0 != $0.lowercased() || !$0.contains("_") }) {
                throw Failure(status: 400, code: "INVALID_CURRENCY_PAIR")
            }
            let wanted = Set(symbols)
            chosen = chosen.filter { wanted.contains(KorbitWriter.symbol($0.market)) }
        }
        let ms = Int64(exchange.now * 1_000)
        var json = JSONWriter(capacity: chosen.count * 400)
        json.beginArray()
        for (market, rank) in chosen {
            KorbitWriter.ticker(
                market,
                exchange.ticker(market, atMilliseconds: ms),
                withSymbol: true,
                stopped: KorbitWriter.isStopped(market, rank: rank),
                into: &json
            )
        }
        json.endArray()
        return KorbitWriter.envelope(json.text)
    }

    /// `interval` ∈ 1,5,15,30,60,240 (minutes), 1D, 1W; `limit` ≤ 200; rows oldest first.
    /// The listed pair a request's `symbol` names, or Korbit's 400.
    private func pair(_ request: Request) throws -> (market: SimMarket, rank: Int) {
        guard let symbol = request.uri.queryParameters["symbol"].map(String.init),
            let pair = listed.first(where: { KorbitWriter.symbol($0.market) == symbol })
        else {
            throw Failure(status: 400, code: "INVALID_CURRENCY_PAIR")
        }
        return pair
    }

    /// `GET /v2/orderbook?symbol=`: `{timestamp, asks[{price, qty}], bids[…]}`, 30 levels each, best
    /// first, string numbers; a stopped pair's book is empty.
    private func orderbook(_ request: Request) throws -> String {
        let (market, rank) = try pair(request)
        let ms = Int64(exchange.now * 1_000)
        let stopped = KorbitWriter.isStopped(market, rank: rank)
        let (asks, bids) =
            stopped
            ? ([], [])
            : SimBook.book(
                market,
                price: exchange.ticker(market, atMilliseconds: ms).price,
                at: ms,
                levels: 30,
                crossed: exchange.faults.crossedBooks
            )
        var json = JSONWriter()
        SimDepthWriter.korbitBook(asks: asks, bids: bids, at: ms, into: &json)
        return KorbitWriter.envelope(json.text)
    }

    /// `GET /v2/trades?symbol=&limit=`: `[{timestamp, price, qty, isBuyerTaker, tradeId}]`, newest first.
    private func trades(_ request: Request) throws -> String {
        let (market, _) = try pair(request)
        let limit = min(max(Int(request.uri.queryParameters["limit"].map(String.init) ?? "") ?? 100, 1), 500)
        var json = JSONWriter()
        json.beginArray()
        for trade in SimBook.trades(market, on: exchange, count: limit, now: Int64(exchange.now * 1_000)) {
            SimDepthWriter.korbitTrade(trade, into: &json)
        }
        json.endArray()
        return KorbitWriter.envelope(json.text)
    }

    private func candles(_ request: Request) throws -> String {
        guard let symbol = request.uri.queryParameters["symbol"].map(String.init),
            let market = listed.first(where: { KorbitWriter.symbol($0.market) == symbol })?.market
        else {
            throw Failure(status: 400, code: "INVALID_CURRENCY_PAIR")
        }
        let units: [String: SimCandleWriter.Unit] = [
            "1": .minutes(1), "5": .minutes(5), "15": .minutes(15), "30": .minutes(30),
            "60": .minutes(60), "240": .minutes(240), "1D": .days, "1W": .weeks,
        ]
        guard let unit = units[request.uri.queryParameters["interval"].map(String.init) ?? ""] else {
            throw Failure(status: 400, code: "BAD_REQUEST")
        }
        let limit = min(max(Int(request.uri.queryParameters["limit"].map(String.init) ?? "") ?? 100, 1), 200)
        let now = exchange.now
        // `end` (ms): the candles before it, newest last (as the client reads `to`: exclusive).
        let end = request.uri.queryParameters["end"].flatMap { Double(String($0)) }.map { min($0 / 1_000, now) } ?? now
        var buckets: [(Int, Int)] = []
        var cursor = end - 0.001
        for _ in 0..<limit {
            let bucket = SimCandleWriter.bucket(containing: cursor, unit: unit)
            buckets.append(bucket)
            cursor = Double(bucket.start) - 0.001
        }
        var json = JSONWriter(capacity: limit * 200)
        json.beginArray()
        for (start, end) in buckets.reversed() {
            let c = SimCandleWriter.ohlc(market: market, start: start, end: end, now: now)
            json.beginObject()
            json.field("timestamp", int: Int64(start) * 1_000)
            json.field("open", KorbitWriter.text(c.open))
            json.field("high", KorbitWriter.text(c.high))
            json.field("low", KorbitWriter.text(c.low))
            json.field("close", KorbitWriter.text(c.close))
            json.field("volume", KorbitWriter.text(c.value / max(c.close, 1e-12)))
            json.endObject()
        }
        json.endArray()
        return KorbitWriter.envelope(json.text)
    }
}
