import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// Binance spot under `/binance` (its `/api/v3` would collide with CoinGecko's here):
///
/// - `GET /binance/api/v3/ticker/bookTicker` — the same pairs' best bid and ask (`bidPrice`,
///   `bidQty`, `askPrice`, `askQty`), weighed and refused as `ticker/price` is.
/// - `GET /binance/api/v3/ticker/price[?symbol=BTCUSDT | ?symbols=["BTCUSDT","ETHUSDT"]]` —
///   `[{"symbol","price"}]` (an object for `symbol`), weight 2 for one symbol and 4 otherwise,
///   `x-mbx-used-weight-1m`; 400 `{"code":-1121,"msg":"Invalid symbol."}`; 429 / 418 with
///   `Retry-After`.
/// - WebSocket `/binance/ws/!miniTicker@arr` (every changed pair each second, as an array),
///   `/binance/ws/<symbol>@miniTicker`, and combined `/binance/stream?streams=a@miniTicker/…`
///   (each event wrapped as `{"stream","data"}`).
/// - `GET|POST /_sim/binance` — counters and switches (`failNext`, `failNextStatus`,
///   `retryAfterSeconds`, `wsRefuse`, `wsStall`, `wsDropNow`, `weightPerMinute`).
struct BinanceController: Sendable {
    let binance: SimBinance

    func addRoutes(to router: Router<SimRequestContext>) {
        router.get("/binance/api/v3/ticker/price") { request, _ in price(request, book: false) }
        router.get("/binance/api/v3/ticker/bookTicker") { request, _ in price(request, book: true) }
        router.get("/binance/api/v3/depth") { request, _ in depth(request) }
        router.ws("/binance/ws/:stream") { _, _ in
            binance.connecting() ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            defer { binance.closed() }
            let name = context.requestContext.parameters.get("stream") ?? ""
            await serve(streams: [name], combined: false, inbound: inbound, outbound: outbound)
        }
        router.ws("/binance/stream") { _, _ in
            binance.connecting() ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            defer { binance.closed() }
            let names = (context.request.uri.queryParameters["streams"].map(String.init) ?? "").split(separator: "/").map(String.init)
            await serve(streams: names, combined: true, inbound: inbound, outbound: outbound)
        }
        router.get("/_sim/binance") { _, _ in SimResponses.json(binance.statsJSON) }
        router.post("/_sim/binance") { request, _ in
            if let refusal = AdminController.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 4_096)
            guard let patch = try? JSONDecoder().decode(SimBinance.Switches.Patch.self, from: Data(body.readableBytesView)) else {
                return SimResponses.error(status: 400, name: "bad_switches", message: "a JSON object of Binance switches")
            }
            let switches = binance.update(patch)
            return SimResponses.json(String(decoding: try JSONEncoder().encode(switches), as: UTF8.self))
        }
    }

    /// `ticker/price` (`{"symbol","price"}`), or with `book` `ticker/bookTicker` (`{"symbol",
    /// "bidPrice","bidQty","askPrice","askQty"}`: a basis point either side of the price).
    private func price(_ request: Request, book: Bool) -> Response {
        let query = request.uri.queryParameters
        let one = query["symbol"].map(String.init)
        var many: [String]?
        if let text = query["symbols"].map(String.init) {
            guard let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
                return Self.error(400, code: -1100, "Illegal characters found in parameter 'symbols'.")
            }
            many = list
        }
        let t = binance.exchange.now
        switch binance.admit(weight: one == nil ? 4 : 2, at: t) {
        case .refused(let status, let retryAfter, let used):
            var headers = HTTPFields()
            headers[.retryAfter] = String(retryAfter)
            headers[HTTPField.Name("x-mbx-used-weight-1m")!] = String(used)
            let message =
                status == 418
                ? "Way too much request weight used; IP banned until later."
                : "Too much request weight used; current limit is 6000 request weight per 1 MINUTE."
            return SimResponses.json(#"{"code":-1003,"msg":"\#(message)"}"#, status: HTTPResponse.Status(code: status), headers: headers)
        case .proceed(let used):
            let pairs = binance.pairs
            let wanted = one.map { [$0] } ?? many
            let chosen = wanted.map { names in pairs.filter { names.contains($0.symbol) } } ?? pairs
            if let wanted, chosen.count != Set(wanted).count { return Self.error(400, code: -1121, "Invalid symbol.") }
            var json = JSONWriter(capacity: 64 * chosen.count + 16)
            if one == nil { json.beginArray() }
            for (symbol, coin) in chosen {
                let price = binance.price(coin, at: t)
                json.beginObject()
                json.field("symbol", symbol)
                if book {
                    let quantity = Double(SimRandom.hash(symbol + "@qty") % 5_000 + 1) / 100
                    json.field("bidPrice", SimBinance.decimal(price * 0.9999))
                    json.field("bidQty", SimBinance.decimal(quantity))
                    json.field("askPrice", SimBinance.decimal(price * 1.0001))
                    json.field("askQty", SimBinance.decimal(quantity * 0.7))
                } else {
                    json.field("price", SimBinance.decimal(price))
                }
                json.endObject()
            }
            if one == nil { json.endArray() }
            var headers = HTTPFields()
            headers[HTTPField.Name("x-mbx-used-weight-1m")!] = String(used)
            return SimResponses.json(json.text, headers: headers)
        }
    }

    /// `GET /api/v3/depth?symbol=BTCUSDT&limit=100` (weight 5): the book around the price.
    private func depth(_ request: Request) -> Response {
        let t = binance.exchange.now
        guard case .proceed = binance.admit(weight: 5, at: t) else {
            return Self.error(429, code: -1003, "Too much request weight used; current limit is 6000 request weight per 1 MINUTE.")
        }
        guard let symbol = request.uri.queryParameters["symbol"].map(String.init),
            let coin = binance.pairs.first(where: { $0.symbol == symbol })?.coin
        else {
            return Self.error(400, code: -1121, "Invalid symbol.")
        }
        let (asks, bids) = SimGlobalBook.levels(symbol: symbol, price: binance.price(coin, at: t), at: t)
        return SimResponses.json(#"{"lastUpdateId":\#(Int64(t * 10)),"bids":\#(SimGlobalBook.json(bids)),"asks":\#(SimGlobalBook.json(asks))}"#)
    }

    static func error(_ status: Int, code: Int, _ message: String) -> Response {
        SimResponses.json(#"{"code":\#(code),"msg":"\#(message)"}"#, status: HTTPResponse.Status(code: status))
    }

    /// Sends each stream's events once a second until the client leaves (or a switch drops it).
    private func serve(streams: [String], combined: Bool, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let pairs = Dictionary(binance.pairs.map { ($0.symbol.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // The client's messages are read (and ignored): a closed socket ends the task.
                do { for try await _ in inbound.messages(maxSize: 1 << 16) {} } catch {}
            }
            group.addTask {
                do {
                    while !Task.isCancelled {
                        if binance.takeDrop() { return }
                        if !binance.switches.wsStall {
                            let t = binance.exchange.now
                            for stream in streams {
                                for text in frames(stream, pairs, combined: combined, at: t) { try await outbound.write(.text(text)) }
                            }
                        }
                        try await Task.sleep(for: .seconds(1))
                    }
                } catch {}
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func frames(_ stream: String, _ pairs: [String: (symbol: String, coin: SimCoinGecko.Coin)], combined: Bool, at t: Double) -> [String] {
        if stream == "!miniTicker@arr" {
            var json = JSONWriter(capacity: 200 * pairs.count)
            if combined {
                json.beginObject()
                json.field("stream", stream)
                json.key("data")
            }
            json.beginArray()
            for (_, pair) in pairs.sorted(by: { $0.key < $1.key }) { binance.miniTicker(pair.symbol, pair.coin, at: t, into: &json) }
            json.endArray()
            if combined { json.endObject() }
            return [json.text]
        }
        guard stream.hasSuffix("@miniTicker"), let pair = pairs[String(stream.dropLast("@miniTicker".count))] else { return [] }
        var json = JSONWriter(capacity: 300)
        if combined {
            json.beginObject()
            json.field("stream", stream)
            json.key("data")
        }
        binance.miniTicker(pair.symbol, pair.coin, at: t, into: &json)
        if combined { json.endObject() }
        return [json.text]
    }
}
