import Foundation
import Hummingbird
import HummingbirdWebSocket

/// CoinGecko's v3 API under `/api/v3` on the simulator: real shapes (string-typed market caps
/// and counts included), a per-minute limit answered with 429 + `retry-after`, small images.
struct CoinGeckoController: Sendable {
    let exchange: SimExchange

    func addRoutes(to router: Router<SimRequestContext>) {
        let group = router.group("/api/v3")
        group.get("/ping") { request, _ in try gate(request) { #"{"gecko_says":"(V3) To the Moon!"}"# } }
        group.get("/search/trending") { request, _ in try gate(request) { trending(request) } }
        group.get("/search") { request, _ in try gate(request) { try search(request) } }
        group.get("/exchange_rates") { request, _ in try gate(request) { rates() } }
        group.get("/coins/markets") { request, _ in try gate(request) { try markets(request) } }
        group.get("/global") { request, _ in try gate(request) { global() } }
        group.get("/coins/:id/market_chart") { request, context in
            try gate(request) { try chart(request, id: context.parameters.get("id") ?? "") }
        }
        group.get("/simple/price") { request, _ in try gate(request) { try simplePrice(request) } }
        group.get("/coins/:id") { request, context in try gate(request) { try coin(request, id: context.parameters.get("id") ?? "") } }
        router.get("/cg-images/huge/:name") { _, _ in
            // A 2 MB "image": what an image proxy must refuse to pass on.
            Response(
                status: .ok,
                headers: [.contentType: "image/png"],
                body: .init(byteBuffer: ByteBuffer(bytes: SimImages.png(seed: "huge") + [UInt8](repeating: 0, count: 2 << 20)))
            )
        }
        router.get("/cg-images/:kind/:name") { _, context in
            // A tiny solid PNG per image, so an image proxy has something real to fetch.
            Response(
                status: .ok,
                headers: [.contentType: "image/png", .cacheControl: "max-age=86400"],
                body: .init(byteBuffer: ByteBuffer(bytes: SimImages.png(seed: context.parameters.get("name") ?? "")))
            )
        }
    }

    var gecko: SimCoinGecko { exchange.coinGecko }

    /// Counting, the per-minute budget (429 with the real body and `retry-after`), and faults.
    private func gate(_ request: Request, _ body: () throws -> String) throws -> Response {
        let path = String(request.uri.path.dropFirst("/api/v3".count))
        switch exchange.geckoGate(path) {
        case .limited(let retry):
            var headers = HTTPFields()
            headers[.retryAfter] = String(retry)
            return SimResponses.json(
                #"{"status":{"error_code":429,"error_message":"You've exceeded the Rate Limit. Please visit https://www.coingecko.com/en/api/pricing to subscribe to our API plans for higher rate limits."}}"#,
                status: .tooManyRequests,
                headers: headers
            )
        case .proceed:
            do {
                return SimResponses.json(try body())
            } catch let error as SimHTTPError {
                return SimResponses.json("{\"error\":" + JSONWriter.quoted(error.message) + "}", status: HTTPResponse.Status(code: error.status))
            }
        }
    }

    func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map(String.init)
    }

    /// Image URLs point back at this simulator, as CoinGecko's point at its image hosts.
    func image(_ request: Request, _ kind: String, _ id: String) -> String {
        "http://\(request.head.authority ?? "127.0.0.1")/cg-images/\(kind)/\(id).png"
    }

    private func trending(_ request: Request) -> String {
        let t = exchange.now
        var json = JSONWriter(capacity: 16_000)
        json.beginObject()
        json.key("coins")
        json.beginArray()
        for (score, coin) in gecko.trending(at: t).enumerated() {
            let usd = gecko.usd(coin, at: t)
            let change = gecko.change24h(coin, at: t)
            json.beginObject()
            json.key("item")
            json.beginObject()
            json.field("id", coin.id)
            json.field("coin_id", int: Int64(coin.rank))
            json.field("name", coin.name)
            json.field("symbol", coin.symbol)
            json.field("market_cap_rank", int: Int64(coin.rank))
            json.field("thumb", image(request, "coins", coin.id))
            json.field("small", image(request, "coins", coin.id))
            json.field("large", image(request, "coins", coin.id))
            json.field("slug", coin.id)
            json.field("price_btc", usd / (gecko.usd(gecko.coin("bitcoin") ?? coin, at: t)))
            json.field("score", int: Int64(score))
            json.key("data")
            json.beginObject()
            json.field("price", usd)
            json.field("price_btc", String(format: "%.20f", usd / gecko.usd(gecko.coin("bitcoin") ?? coin, at: t)))
            json.key("price_change_percentage_24h")
            json.beginObject()
            json.field("krw", change)
            json.field("usd", change)
            json.endObject()
            json.field("market_cap", "$" + Self.grouped(usd * 1e7 / Double(coin.rank)))
            json.field("total_volume", "$" + Self.grouped(coin.market.value24h(at: t) / SimCoinGecko.krwPerUSD))
            json.key("content")
            json.null()
            json.endObject()
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.key("nfts")
        json.beginArray()
        for (i, nft) in gecko.nfts.prefix(7).enumerated() {
            let change = SimRandom.unit(SimRandom.hash(UInt64(t / 600), UInt64(i))) * 15
            json.beginObject()
            json.field("id", nft.id)
            json.field("name", nft.name)
            json.field("symbol", nft.symbol)
            json.field("thumb", image(request, "nfts", nft.id))
            json.field("nft_contract_id", int: Int64(1_000 + i))
            json.field("native_currency_symbol", nft.currency)
            json.field("floor_price_in_native_currency", nft.floor)
            json.field("floor_price_24h_percentage_change", change)
            json.key("data")
            json.beginObject()
            json.field("floor_price", "\(nft.floor) \(nft.currency.uppercased())")
            json.field("floor_price_in_usd_24h_percentage_change", String(change))
            json.endObject()
            json.endObject()
        }
        json.endArray()
        json.key("categories")
        json.beginArray()
        json.beginObject()
        json.field("id", int: 1)
        json.field("name", "Korean Won Stablecoins")
        json.field("coins_count", "12")
        json.endObject()
        json.endArray()
        json.endObject()
        return json.text
    }

    private func search(_ request: Request) throws -> String {
        guard let q = query(request, "query")?.trimmingCharacters(in: .whitespaces).lowercased(), !q.isEmpty else {
            throw SimHTTPError(status: 400, message: "Missing parameter query")
        }
        let coins = gecko.coins.filter { $0.id.contains(q) || $0.name.lowercased().contains(q) || $0.symbol.lowercased().contains(q) }
        var json = JSONWriter(capacity: 8_000)
        json.beginObject()
        json.key("coins")
        json.beginArray()
        for coin in coins.prefix(25) {
            json.beginObject()
            json.field("id", coin.id)
            json.field("name", coin.name)
            json.field("api_symbol", coin.id)
            json.field("symbol", coin.symbol)
            json.field("market_cap_rank", int: Int64(coin.rank))
            json.field("thumb", image(request, "coins", coin.id))
            json.field("large", image(request, "coins", coin.id))
            json.endObject()
        }
        json.endArray()
        json.key("exchanges")
        json.beginArray()
        for (id, name) in SimCoinGecko.exchanges where id.contains(q) || name.lowercased().contains(q) {
            json.beginObject()
            json.field("id", id)
            json.field("name", name)
            json.field("market_type", "spot")
            json.field("thumb", image(request, "markets", id))
            json.field("large", image(request, "markets", id))
            json.endObject()
        }
        json.endArray()
        json.key("icos")
        json.beginArray()
        json.endArray()
        json.key("categories")
        json.beginArray()
        json.endArray()
        json.key("nfts")
        json.beginArray()
        for nft in gecko.nfts where nft.id.contains(q) || nft.name.lowercased().contains(q) {
            json.beginObject()
            json.field("id", nft.id)
            json.field("name", nft.name)
            json.field("symbol", nft.symbol)
            json.field("thumb", image(request, "nfts", nft.id))
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.text
    }

    private func rates() -> String {
        let btcKRW = gecko.coin("bitcoin")?.market.price(at: exchange.now) ?? 1e8
        var json = JSONWriter()
        json.beginObject()
        json.key("rates")
        json.beginObject()
        for (code, name, unit, value, type) in [
            ("btc", "Bitcoin", "BTC", 1.0, "crypto"),
            ("usd", "US Dollar", "$", btcKRW / SimCoinGecko.krwPerUSD, "fiat"),
            ("krw", "South Korean Won", "₩", btcKRW, "fiat"),
        ] {
            json.key(code)
            json.beginObject()
            json.field("name", name)
            json.field("unit", unit)
            json.field("value", value)
            json.field("type", type)
            json.endObject()
        }
        json.endObject()
        json.endObject()
        return json.text
    }

    /// `/coins/{id}`: the market data block in KRW and USD.
    private func coin(_ request: Request, id: String) throws -> String {
        guard let coin = gecko.coin(id) else { throw SimHTTPError(status: 404, message: "coin not found") }
        let t = exchange.now
        let krw = coin.market.price(at: t)
        let year = stride(from: 0.0, through: 365, by: 5).map { (coin.market.price(at: t - $0 * 86_400), t - $0 * 86_400) }
        let ath = year.max { $0.0 < $1.0 }!
        let atl = year.min { $0.0 < $1.0 }!
        var json = JSONWriter(capacity: 2_000)
        json.beginObject()
        json.field("id", coin.id)
        json.field("symbol", coin.symbol.lowercased())
        json.field("name", coin.name)
        json.key("image")
        json.beginObject()
        for size in ["thumb", "small", "large"] { json.field(size, image(request, "coins", coin.id)) }
        json.endObject()
        json.field("market_cap_rank", int: Int64(coin.rank))
        json.key("market_data")
        json.beginObject()
        func both(_ name: String, _ value: Double) {
            json.key(name)
            json.beginObject()
            json.field("krw", value)
            json.field("usd", value / SimCoinGecko.krwPerUSD)
            json.endObject()
        }
        both("current_price", krw)
        both("market_cap", (krw * 1e7 / Double(coin.rank)).rounded())
        both("total_volume", coin.market.value24h(at: t).rounded())
        both("high_24h", (0...24).map { coin.market.price(at: t - Double($0) * 3_600) }.max()!)
        both("low_24h", (0...24).map { coin.market.price(at: t - Double($0) * 3_600) }.min()!)
        both("ath", ath.0)
        both("atl", atl.0)
        for (name, when) in [("ath_date", ath.1), ("atl_date", atl.1)] {
            json.key(name)
            json.beginObject()
            json.field("krw", SimTime.isoLocal(Int(when)) + ".000Z")
            json.field("usd", SimTime.isoLocal(Int(when)) + ".000Z")
            json.endObject()
        }
        json.field("price_change_percentage_24h", gecko.change24h(coin, at: t))
        json.field("last_updated", SimTime.isoLocal(Int(t)) + ".000Z")
        json.endObject()
        json.field("last_updated", SimTime.isoLocal(Int(t)) + ".000Z")
        json.endObject()
        return json.text
    }

    private func chart(_ request: Request, id: String) throws -> String {
        guard let coin = gecko.coin(id) else { throw SimHTTPError(status: 404, message: "coin not found") }
        guard let days = query(request, "days").flatMap(Int.init), days > 0, days <= 365 else {
            throw SimHTTPError(status: 400, message: "Missing parameter days")
        }
        let usd = query(request, "vs_currency")?.lowercased() == "usd"
        let scale = usd ? 1 / SimCoinGecko.krwPerUSD : 1
        let t = exchange.now
        let step: Double = days == 1 ? 300 : (days <= 90 ? 3_600 : 86_400)
        let start = ((t - Double(days) * 86_400) / step).rounded(.up) * step
        var json = JSONWriter(capacity: 40_000)
        json.beginObject()
        for key in ["prices", "market_caps", "total_volumes"] {
            json.key(key)
            json.beginArray()
            var s = start
            while s <= t {
                writePoint(&json, s, coin, key, scale)
                s += step
            }
            writePoint(&json, t, coin, key, scale)
            json.endArray()
        }
        json.endObject()
        return json.text
    }

    private func writePoint(_ json: inout JSONWriter, _ s: Double, _ coin: SimCoinGecko.Coin, _ key: String, _ scale: Double) {
        let price = coin.market.price(at: s) * scale
        json.beginArray()
        json.int(Int64(s * 1_000))
        switch key {
        case "prices": json.number(price)
        case "market_caps": json.number(price * 1e7 / Double(coin.rank))
        default: json.number(coin.market.value24h(at: s) * scale)
        }
        json.endArray()
    }

    private func simplePrice(_ request: Request) throws -> String {
        guard let ids = query(request, "ids"), let currencies = query(request, "vs_currencies") else {
            throw SimHTTPError(status: 400, message: "Missing parameter vs_currencies")
        }
        let t = exchange.now
        var json = JSONWriter()
        json.beginObject()
        for coin in ids.split(separator: ",").compactMap({ gecko.coin(String($0)) }) {
            json.key(coin.id)
            json.beginObject()
            for currency in currencies.lowercased().split(separator: ",") where currency == "krw" || currency == "usd" {
                json.field(String(currency), coin.market.price(at: t) / (currency == "usd" ? SimCoinGecko.krwPerUSD : 1))
            }
            json.field("last_updated_at", int: Int64(t))
            json.endObject()
        }
        json.endObject()
        return json.text
    }

    static func grouped(_ value: Double) -> String {
        let digits = String(Int64(max(0, value.rounded())))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
