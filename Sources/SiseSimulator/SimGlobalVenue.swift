import Foundation
import Hummingbird
import SiseCore
import Synchronization

/// OKX (`/okx/api/v5/market/tickers?instType=SPOT`) and Bybit (`/bybit/v5/market/tickers?category=spot`)
/// spot tickers in their own envelopes, priced like the simulated Binance (each coin's KRW price
/// over the simulated USDT and its premium) with a small offset per venue, a few coins left out,
/// and one ticker that is another coin on that venue (priced far off, as a name collision is).
/// `GET|POST /_sim/{okx|bybit}`: counters and switches — `failNext` with `failNextStatus` (429
/// with `Retry-After`), `errorCode` (OKX's `code` / Bybit's `retCode` in an HTTP 200), `lagSeconds`
/// (the venue's stamp that far behind), `down` (503).
final class SimGlobalVenue: Sendable {
    struct Switches: Codable, Sendable {
        var failNext = 0
        var failNextStatus = 429
        var errorCode = 0
        var lagSeconds = 0.0
        var down = false

        struct Patch: Decodable {
            var failNext: Int?
            var failNextStatus: Int?
            var errorCode: Int?
            var lagSeconds: Double?
            var down: Bool?
        }
    }

    private struct State {
        var switches = Switches()
        var calls = 0
    }

    let venue: GlobalVenue
    let binance: SimBinance
    private let state = Mutex(State())

    init(venue: GlobalVenue, binance: SimBinance) {
        self.venue = venue
        self.binance = binance
    }

    /// The coin listed under another coin's ticker on this venue.
    static func collision(_ venue: GlobalVenue) -> String? { venue == .okx ? "ADA" : nil }

    /// The venue's USDT pairs: Binance's coins but about one in six of the minor ones, by venue.
    var pairs: [(base: String, coin: SimCoinGecko.Coin)] {
        binance.exchange.coinGecko.coins.compactMap { coin in
            guard coin.symbol != "USDT" else { return nil }
            let major = ["BTC", "ETH", "XRP", "SOL", "DOGE", "ADA", "TRX"].contains(coin.symbol)
            guard major || SimRandom.hash(coin.symbol + "@" + venue.rawValue) % 6 != 0 else { return nil }
            return (coin.symbol, coin)
        }
    }

    /// Binance's price moved by a venue's own few basis points (another coin for the collision).
    func price(_ coin: SimCoinGecko.Coin, at t: Double) -> Double {
        let offset = 1 + (Double(SimRandom.hash(coin.symbol + "#" + venue.rawValue) % 21) - 10) / 10_000
        let price = binance.price(coin, at: t) * offset
        return coin.symbol == Self.collision(venue) ? price * 37 : price
    }

    func update(_ patch: Switches.Patch) {
        state.withLock { s in
            if let v = patch.failNext { s.switches.failNext = max(0, v) }
            if let v = patch.failNextStatus { s.switches.failNextStatus = v }
            if let v = patch.errorCode { s.switches.errorCode = v }
            if let v = patch.lagSeconds { s.switches.lagSeconds = max(0, v) }
            if let v = patch.down { s.switches.down = v }
        }
    }

    var statsJSON: String {
        state.withLock { #"{"calls":\#($0.calls),"down":\#($0.switches.down),"errorCode":\#($0.switches.errorCode)}"# }
    }

    /// Counts a call; the switches that answer it instead (a status), or the lag to stamp with.
    private func admit() -> (refusal: Int?, errorCode: Int, lag: Double) {
        state.withLock { s in
            s.calls += 1
            if s.switches.down { return (503, 0, 0) }
            if s.switches.failNext > 0 {
                s.switches.failNext -= 1
                return (s.switches.failNextStatus, 0, 0)
            }
            return (nil, s.switches.errorCode, s.switches.lagSeconds)
        }
    }

    func addRoutes(to router: Router<SimRequestContext>) {
        let path = venue == .okx ? "/okx/api/v5/market/tickers" : "/bybit/v5/market/tickers"
        router.get(RouterPath(path)) { request, _ in self.tickers(request) }
        router.get(RouterPath(venue == .okx ? "/okx/api/v5/market/books" : "/bybit/v5/market/orderbook")) { request, _ in self.book(request) }
        router.get(RouterPath("/_sim/" + venue.rawValue)) { _, _ in SimResponses.json(self.statsJSON) }
        router.post(RouterPath("/_sim/" + venue.rawValue)) { request, _ in
            if let refusal = AdminController.refusal(request) { return refusal }
            var request = request
            let body = try await request.collectBody(upTo: 4_096)
            guard let patch = try? JSONDecoder().decode(Switches.Patch.self, from: Data(body.readableBytesView)) else {
                return SimResponses.error(status: 400, name: "bad_switches", message: "a JSON object of \(self.venue.rawValue) switches")
            }
            self.update(patch)
            return SimResponses.json(self.statsJSON)
        }
    }

    /// OKX `books?instId=BTC-USDT` (levels of four strings, `ts` a string) or Bybit
    /// `orderbook?category=spot&symbol=BTCUSDT` (`a`/`b`, `ts` a number); refusals as the tickers'.
    private func book(_ request: Request) -> Response {
        let (refusal, errorCode, lag) = admit()
        if let refusal { return SimResponses.json("{}", status: HTTPResponse.Status(code: refusal)) }
        let t = binance.exchange.now - lag
        let query = request.uri.queryParameters
        let asked = (venue == .okx ? query["instId"] : query["symbol"]).map(String.init) ?? ""
        let base = venue == .okx ? asked.replacingOccurrences(of: "-USDT", with: "") : String(asked.dropLast(asked.hasSuffix("USDT") ? 4 : 0))
        let coin = pairs.first { $0.base == base && !base.isEmpty }?.coin
        if venue == .okx {
            guard errorCode == 0, let coin else {
                return SimResponses.json(#"{"code":"\#(errorCode != 0 ? errorCode : 51001)","msg":"Instrument ID does not exist","data":[]}"#)
            }
            let (asks, bids) = SimGlobalBook.levels(symbol: asked, price: price(coin, at: t), at: t)
            return SimResponses.json(
                #"{"code":"0","msg":"","data":[{"asks":\#(SimGlobalBook.json(asks, extra: #","0","1""#)),"bids":\#(SimGlobalBook.json(bids, extra: #","0","1""#)),"ts":"\#(Int64(t * 1_000))"}]}"#
            )
        }
        guard errorCode == 0, let coin, query["category"] == "spot" else {
            return SimResponses.json(
                #"{"retCode":\#(errorCode != 0 ? errorCode : 10001),"retMsg":"params error","result":{},"time":\#(Int64(t * 1_000))}"#
            )
        }
        let (asks, bids) = SimGlobalBook.levels(symbol: asked, price: price(coin, at: t), at: t)
        let stamp = Int64(t * 1_000)
        return SimResponses.json(
            #"{"retCode":0,"retMsg":"OK","result":{"s":"\#(asked)","b":\#(SimGlobalBook.json(bids)),"a":\#(SimGlobalBook.json(asks)),"ts":\#(stamp),"u":1,"seq":1},"retExtInfo":{},"time":\#(stamp)}"#
        )
    }

    private func tickers(_ request: Request) -> Response {
        let (refusal, errorCode, lag) = admit()
        if let refusal {
            var headers = HTTPFields()
            if refusal == 429 { headers[.retryAfter] = "1" }
            let body = venue == .okx ? #"{"code":"50011","msg":"Too Many Requests","data":[]}"# : #"{"retCode":10006,"retMsg":"Too many visits!"}"#
            return SimResponses.json(refusal == 429 ? body : "{}", status: HTTPResponse.Status(code: refusal), headers: headers)
        }
        let t = binance.exchange.now
        let stamp = Int64((t - lag) * 1_000)
        var json = JSONWriter(capacity: 64 * 1_024)
        json.beginObject()
        if venue == .okx {
            let wanted = request.uri.queryParameters["instType"] == "SPOT"
            json.field("code", errorCode != 0 ? String(errorCode) : (wanted ? "0" : "51000"))
            json.field("msg", errorCode != 0 || !wanted ? "Parameter instType error" : "")
            json.key("data")
            json.beginArray()
            if errorCode == 0 && wanted {
                for (base, coin) in pairs {
                    json.beginObject()
                    json.field("instType", "SPOT")
                    json.field("instId", base + "-USDT")
                    json.field("last", SimBinance.decimal(price(coin, at: t - lag)))
                    json.field("ts", String(stamp))
                    json.endObject()
                }
            }
            json.endArray()
        } else {
            let wanted = request.uri.queryParameters["category"] == "spot"
            json.field("retCode", int: Int64(errorCode != 0 ? errorCode : (wanted ? 0 : 10001)))
            json.field("retMsg", errorCode != 0 || !wanted ? "params error" : "OK")
            json.key("result")
            json.beginObject()
            json.field("category", "spot")
            json.key("list")
            json.beginArray()
            if errorCode == 0 && wanted {
                for (base, coin) in pairs {
                    json.beginObject()
                    json.field("symbol", base + "USDT")
                    json.field("lastPrice", SimBinance.decimal(price(coin, at: t - lag)))
                    json.endObject()
                }
            }
            json.endArray()
            json.endObject()
            json.field("time", int: stamp)
        }
        json.endObject()
        return SimResponses.json(json.text)
    }
}
