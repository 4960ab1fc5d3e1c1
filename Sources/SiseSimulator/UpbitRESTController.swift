import Foundation
import Hummingbird
import HummingbirdWebSocket

/// Upbit's quotation REST endpoints on the simulator, each behind the rate limit and the faults.
/// Bithumb's `/v1` is the same family with its traps (`bithumb` on, under `/bithumb`): errors
/// with HTTP 200, `market_warning` instead of `market_event`, ticker times in KST written as
/// epoch ms, no `/v1/ticker/all`, at most 200 markets per ticker call, and
/// `/v1/market/virtual_asset_warning`.
struct UpbitRESTController: Sendable {
    let exchange: SimExchange
    var bithumb = false
    /// Bithumb's tickers refuse more markets than this in one call (HTTP 400).
    static let bithumbMaxMarkets = 200

    func addRoutes(to router: Router<SimRequestContext>) {
        let p = bithumb ? "/bithumb" : ""
        router.get("\(p)/v1/market/all") { request, _ in
            try await serve("market", request) { marketAll(request) }
        }
        router.get("\(p)/v1/ticker") { request, _ in
            try await serve("ticker", request) { try tickers(request) }
        }
        router.get("\(p)/v1/orderbook") { request, _ in
            try await serve("orderbook", request) { try orderbooks(request) }
        }
        router.get("\(p)/v1/trades/ticks") { request, _ in
            try await serve("trade", request) { try trades(request) }
        }
        if bithumb {
            router.get("\(p)/v1/market/virtual_asset_warning") { request, _ in
                try await serve("market", request) { assetWarnings() }
            }
            return addCandleRoutes(to: router, prefix: p)
        }
        router.get("/v1/ticker/all") { request, _ in
            try await serve("ticker", request) { try tickerAll(request) }
        }
        router.get("/v1/orderbook/instruments") { request, _ in
            try await serve("orderbook", request) { try instruments(request) }
        }
        addCandleRoutes(to: router, prefix: p)
    }

    private func addCandleRoutes(to router: Router<SimRequestContext>, prefix p: String) {
        router.get("\(p)/v1/candles/seconds") { request, _ in
            try await serve("candles", request) { try candles(request, unit: .seconds) }
        }
        router.get("\(p)/v1/candles/minutes/:unit") { request, context in
            try await serve("candles", request) {
                guard let unit = context.parameters.get("unit").flatMap(Int.init),
                    [1, 3, 5, 10, 15, 30, 60, 240].contains(unit)
                else { throw SimHTTPError.typeMismatch() }
                return try candles(request, unit: .minutes(unit))
            }
        }
        for (path, unit) in [("days", SimCandleWriter.Unit.days), ("weeks", .weeks), ("months", .months), ("years", .years)] {
            router.get("\(p)/v1/candles/\(path)") { request, _ in
                try await serve("candles", request) { try candles(request, unit: unit) }
            }
        }
    }

    // MARK: - The gate every exchange request passes

    private func serve(_ group: String, _ request: Request, _ handler: () throws -> String) async throws -> Response {
        let origin = request.headers[.origin] != nil
        switch exchange.gate(group, origin: origin) {
        case .fail(let status, let remaining, let retryAfter):
            try await delay()
            var headers = SimResponses.remainingReq(origin ? "origin" : group, remaining)
            if let retryAfter { headers[.retryAfter] = String(retryAfter) }
            return SimResponses.error(
                status: bithumb && status < 429 ? 200 : status,
                name: bithumb ? String(status) : nil,
                message: SimResponses.defaultMessage(status),
                headers: headers
            )
        case .proceed(let remaining, let malformed):
            try await delay()
            let headers = SimResponses.remainingReq(origin ? "origin" : group, remaining)
            do {
                var body = try handler()
                if malformed { body = String(body.prefix(max(1, body.count / 2))) }
                return SimResponses.json(body, headers: headers)
            } catch let error as SimHTTPError {
                // Bithumb answers its errors with HTTP 200 (the body says what went wrong), all
                // but the too-many-markets refusal.
                let status = bithumb && !error.httpStatusOnBithumb ? 200 : error.status
                return SimResponses.error(status: status, name: bithumb ? String(error.status) : nil, message: error.message, headers: headers)
            }
        }
    }

    /// Latency and hanging, re-read while waiting so a test can release a hung request.
    private func delay() async throws {
        let latency = exchange.faults.latencyMs
        if latency > 0 { try await Task.sleep(for: .milliseconds(latency)) }
        var waited = 0
        while exchange.faults.hang && waited < 1_200 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
    }

    // MARK: - Handlers

    private func marketAll(_ request: Request) -> String {
        let details = query(request, bithumb ? "isDetails" : "is_details").map { $0.lowercased() == "true" } ?? false
        var json = JSONWriter(capacity: exchange.universe.markets.count * 300)
        json.beginArray()
        let delisted = Set(exchange.faults.delisted)
        for market in exchange.universe.markets where !delisted.contains(market.code) {
            let flag = exchange.flag(market)
            json.beginObject()
            json.field("market", market.code)
            json.field("korean_name", market.korean)
            json.field("english_name", market.english)
            if details && bithumb {
                json.field("market_warning", flag.isSet ? "CAUTION" : "NONE")
            } else if details {
                json.key("market_event")
                json.beginObject()
                json.field("warning", flag.warning)
                json.key("caution")
                json.beginObject()
                for reason in SimUniverse.cautionReasons { json.field(reason, flag.cautions.contains(reason)) }
                json.endObject()
                json.endObject()
            }
            json.endObject()
        }
        json.endArray()
        return json.text
    }

    private func tickers(_ request: Request) throws -> String {
        let markets = try named(request)
        if bithumb && markets.count > Self.bithumbMaxMarkets {
            throw SimHTTPError(status: 400, message: "markets: at most \(Self.bithumbMaxMarkets) per request", httpStatusOnBithumb: true)
        }
        return writeTickers(markets)
    }

    /// The markets a request's `markets=` list names (upper-cased, trimmed); any unknown (or
    /// delisted) one is the exchange's 404.
    private func named(_ request: Request) throws -> [SimMarket] {
        guard let list = query(request, "markets"), !list.isEmpty else { throw SimHTTPError.missing() }
        let delisted = Set(exchange.faults.delisted)
        return try list.split(separator: ",").map { code in
            guard let market = exchange.universe.market(code.trimmingCharacters(in: .whitespaces).uppercased()), !delisted.contains(market.code)
            else {
                throw SimHTTPError.codeNotFound()
            }
            return market
        }
    }

    private func tickerAll(_ request: Request) throws -> String {
        guard let list = query(request, "quote_currencies"), !list.isEmpty else { throw SimHTTPError.missing() }
        let quotes = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        guard quotes.allSatisfy({ ["KRW", "BTC", "USDT"].contains($0) }) else { throw SimHTTPError.codeNotFound() }
        let delisted = Set(exchange.faults.delisted)
        return writeTickers(exchange.universe.markets.filter { quotes.contains($0.quote) && !delisted.contains($0.code) })
    }

    private func writeTickers(_ markets: [SimMarket]) -> String {
        let ms = Int64(exchange.now * 1_000)
        var json = JSONWriter(capacity: markets.count * 900)
        json.beginArray()
        for market in markets {
            var state = exchange.ticker(market, atMilliseconds: ms)
            if bithumb {
                // Bithumb's trap: KST wall time written as if it were epoch ms (9 h ahead).
                state.timestamp += Int64(SimTime.kstOffset) * 1_000
                state.tradeTimestamp += Int64(SimTime.kstOffset) * 1_000
            }
            SimTickerWriter.write(market, state, into: &json)
        }
        json.endArray()
        return json.text
    }

    private func candles(_ request: Request, unit: SimCandleWriter.Unit) throws -> String {
        guard let code = query(request, "market"), !code.isEmpty else { throw SimHTTPError.missing() }
        guard let market = exchange.universe.market(code) else { throw SimHTTPError.codeNotFound() }
        var count = 1
        if let text = query(request, "count") {
            guard let n = Int(text) else { throw SimHTTPError.typeMismatch() }
            count = min(max(n, 1), 200)
        }
        let now = exchange.now
        var to = now
        if let text = query(request, "to"), !text.isEmpty {
            guard let parsed = SimTime.parse(text) else { throw SimHTTPError.typeMismatch() }
            to = parsed
        }
        return SimCandleWriter.write(market: market, unit: unit, count: count, to: to, now: now)
    }

    private func instruments(_ request: Request) throws -> String {
        let markets = try named(request)
        let now = exchange.now
        var json = JSONWriter()
        json.beginArray()
        for market in markets {
            json.beginObject()
            json.field("market", market.code)
            json.field("quote_currency", market.quote)
            json.field("tick_size", market.tickText(at: now))
            json.key("supported_levels")
            json.beginArray()
            json.string("0")
            json.endArray()
            json.endObject()
        }
        json.endArray()
        return json.text
    }

    /// Bithumb's `warning_type` for an Upbit caution key (its list spells them its own way).
    private static func bithumbType(_ key: String?) -> String {
        switch key {
        case "TRADING_VOLUME_SOARING": "TRADING_VOLUME_SUDDEN_FLUCTUATION"
        case "DEPOSIT_AMOUNT_SOARING": "DEPOSIT_AMOUNT_SUDDEN_FLUCTUATION"
        case "PRICE_FLUCTUATIONS": "PRICE_SUDDEN_FLUCTUATION"
        case "CONCENTRATION_OF_SMALL_ACCOUNTS": "SPECIFIC_ACCOUNT_HIGH_TRANSACTION"
        default: "PRICE_DIFFERENCE_HIGH"
        }
    }

    /// `[{market, warning_type, warning_step, end_date}]` for the venue's warned listings.
    private func assetWarnings() -> String {
        var json = JSONWriter()
        json.beginArray()
        let end = SimTime.compactDate(Int(exchange.now) + 3 * 86_400 + SimTime.kstOffset)
        let delisted = Set(exchange.faults.delisted)
        for market in exchange.universe.markets where market.quote == "KRW" && !delisted.contains(market.code) {
            let flag = exchange.flag(market)
            guard flag.isSet else { continue }
            json.beginObject()
            json.field("market", market.code)
            json.field("warning_type", flag.warning ? "PRICE_SUDDEN_FLUCTUATION" : Self.bithumbType(flag.cautions.first))
            json.field("warning_step", flag.warning ? "WARNING" : "CAUTION")
            json.field("end_date", "\(end.prefix(4))-\(end.dropFirst(4).prefix(2))-\(end.suffix(2)) 23:59:59")
            json.endObject()
        }
        json.endArray()
        return json.text
    }

    /// `GET /v1/orderbook?markets=`: 15 levels a market, each level an ask and a bid (`SimBook`).
    private func orderbooks(_ request: Request) throws -> String {
        let markets = try named(request)
        let ms = Int64(exchange.now * 1_000)
        var json = JSONWriter()
        json.beginArray()
        for market in markets {
            let (asks, bids) = SimBook.book(
                market,
                price: exchange.ticker(market, atMilliseconds: ms).price,
                at: ms,
                levels: 15,
                crossed: exchange.faults.crossedBooks
            )
            SimDepthWriter.upbitBook(market, asks: asks, bids: bids, at: ms, stream: nil, into: &json)
        }
        json.endArray()
        return json.text
    }

    /// `GET /v1/trades/ticks?market=&count=`: the tape, newest first (`SimBook`).
    private func trades(_ request: Request) throws -> String {
        guard let code = query(request, "market"), !code.isEmpty else { throw SimHTTPError.missing() }
        guard let market = exchange.universe.market(code.uppercased()) else { throw SimHTTPError.codeNotFound() }
        let count = min(max(Int(query(request, "count") ?? "") ?? 1, 1), 500)
        let ms = Int64(exchange.now * 1_000)
        let prevClose = exchange.ticker(market, atMilliseconds: ms).prevClose
        var json = JSONWriter()
        json.beginArray()
        for trade in SimBook.trades(market, on: exchange, count: count, now: ms) {
            SimDepthWriter.upbitTrade(market, trade, prevClose: prevClose, stream: nil, into: &json)
        }
        json.endArray()
        return json.text
    }

    private func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map(String.init)
    }
}
