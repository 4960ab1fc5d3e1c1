import Foundation
import SiseCore
import Synchronization

/// Binance spot as far as Sise uses it: a `<SYMBOL>USDT` pair for most simulated coins (a few
/// left out, as Binance lacks some Korean listings, and never USDT itself), priced from the
/// simulated KRW price over the simulation's dollar rate and a small per-coin premium, so the
/// kimchi premium is real arithmetic over loopback. Request weight per minute as Binance counts
/// it, and switches for 429 / 418 answers and WebSocket refusals, drops and stalls.
final class SimBinance: Sendable {
    struct Switches: Codable, Sendable {
        /// Answer the next REST request(s) with this status (429 or 418) and `Retry-After`.
        var failNext = 0
        var failNextStatus = 429
        var retryAfterSeconds = 2
        var wsRefuse = false
        var wsStall = false
        var wsDropNow = false
        /// Request weight allowed per minute (Binance: 6,000).
        var weightPerMinute = 6_000

        struct Patch: Decodable {
            var failNext: Int?
            var failNextStatus: Int?
            var retryAfterSeconds: Int?
            var wsRefuse: Bool?
            var wsStall: Bool?
            var wsDropNow: Bool?
            var weightPerMinute: Int?
        }
    }

    struct State {
        var switches = Switches()
        var weight: [(at: Double, weight: Int)] = []
        var restCalls = 0
        var connects = 0
        var open = 0
        var drops = 0
    }

    let exchange: SimExchange
    private let state = Mutex(State())
    /// Each pair's lowest and highest price at the day's hour marks, for the hour they were read
    /// in: they change only when the hour does, and the stream asks for them every second.
    private let hourMarks = Mutex<[String: (hour: Int64, low: Double, high: Double)]>([:])

    init(exchange: SimExchange) {
        self.exchange = exchange
    }

    /// The pairs Binance lists: the simulated coins but about one in eight (never the majors).
    var pairs: [(symbol: String, coin: SimCoinGecko.Coin)] {
        exchange.coinGecko.coins.compactMap { coin in
            guard coin.symbol != "USDT" else { return nil }
            let major = ["BTC", "ETH", "XRP", "SOL", "DOGE", "ADA", "TRX"].contains(coin.symbol)
            guard major || SimRandom.hash(coin.symbol + "@binance") % 8 != 0 else { return nil }
            return (coin.symbol + "USDT", coin)
        }
    }

    /// The coin's premium in Korea in this simulation: +0.5 % to +3 %.
    func premium(_ coin: SimCoinGecko.Coin) -> Double {
        0.005 + 0.025 * SimRandom.unit(SimRandom.hash(coin.symbol + "@premium"))
    }

    /// Abroad, over the simulated Upbit's own USDT price: premiums measured with `--fx
    /// upbit-usdt` land on each coin's +0.5 … +3 % (and higher over the bank rate).
    func price(_ coin: SimCoinGecko.Coin, at t: Double) -> Double {
        let usdt = exchange.coinGecko.coin("tether")?.market.price(at: t) ?? SimCoinGecko.krwPerUSD
        return coin.market.price(at: t) / usdt / (1 + premium(coin))
    }

    var switches: Switches { state.withLock { $0.switches } }

    func update(_ patch: Switches.Patch) -> Switches {
        state.withLock { s in
            if let v = patch.failNext { s.switches.failNext = max(0, v) }
            if let v = patch.failNextStatus { s.switches.failNextStatus = v }
            if let v = patch.retryAfterSeconds { s.switches.retryAfterSeconds = max(0, v) }
            if let v = patch.wsRefuse { s.switches.wsRefuse = v }
            if let v = patch.wsStall { s.switches.wsStall = v }
            if let v = patch.wsDropNow { s.switches.wsDropNow = v }
            if let v = patch.weightPerMinute { s.switches.weightPerMinute = max(1, v) }
            return s.switches
        }
    }

    enum Gate {
        case proceed(usedWeight: Int)
        case refused(status: Int, retryAfter: Int, usedWeight: Int)
    }

    /// Counts a REST request of `weight`; refuses it as the switches or the minute's weight say.
    func admit(weight: Int, at t: Double) -> Gate {
        state.withLock { s in
            s.restCalls += 1
            s.weight.removeAll { $0.at <= t - 60 }
            let used = s.weight.reduce(0) { $0 + $1.weight }
            if s.switches.failNext > 0 {
                s.switches.failNext -= 1
                return .refused(status: s.switches.failNextStatus, retryAfter: s.switches.retryAfterSeconds, usedWeight: used)
            }
            guard used + weight <= s.switches.weightPerMinute else {
                return .refused(status: 429, retryAfter: max(1, Int(60 - (t - (s.weight.first?.at ?? t)))), usedWeight: used)
            }
            s.weight.append((t, weight))
            return .proceed(usedWeight: used + weight)
        }
    }

    /// A WebSocket opened (or was refused); the caller reports its end with `closed()`.
    func connecting() -> Bool {
        state.withLock { s in
            s.connects += 1
            guard !s.switches.wsRefuse else { return false }
            s.open += 1
            return true
        }
    }

    func closed() { state.withLock { $0.open -= 1 } }

    /// Whether open sockets should drop now (each sees it once per switch).
    func takeDrop() -> Bool {
        state.withLock { s in
            guard s.switches.wsDropNow else { return false }
            s.drops += 1
            if s.drops >= s.open {
                s.switches.wsDropNow = false
                s.drops = 0
            }
            return true
        }
    }

    var statsJSON: String {
        state.withLock { s in
            var json = JSONWriter()
            json.beginObject()
            json.field("restCalls", int: Int64(s.restCalls))
            json.field("wsConnects", int: Int64(s.connects))
            json.field("wsOpen", int: Int64(s.open))
            json.field("usedWeight", int: Int64(s.weight.reduce(0) { $0 + $1.weight }))
            json.endObject()
            return json.text
        }
    }

    /// One `24hrMiniTicker` event.
    func miniTicker(_ symbol: String, _ coin: SimCoinGecko.Coin, at t: Double, into json: inout JSONWriter) {
        let close = price(coin, at: t)
        let open = price(coin, at: t - 86_400)
        let marks = dayMarks(symbol, coin, at: t)
        json.beginObject()
        json.field("e", "24hrMiniTicker")
        json.field("E", int: Int64(t * 1_000))
        json.field("s", symbol)
        json.field("c", Self.decimal(close))
        json.field("o", Self.decimal(open))
        json.field("h", Self.decimal(max(marks.high, close, open)))
        json.field("l", Self.decimal(min(marks.low, close, open)))
        json.field("v", Self.decimal(coin.market.value24h(at: t) / SimCoinGecko.krwPerUSD / max(close, 1e-12)))
        json.field("q", Self.decimal(coin.market.value24h(at: t) / SimCoinGecko.krwPerUSD))
        json.endObject()
    }

    /// The lowest and highest price at the last 24 hour marks (the day's range but for the
    /// moments since the last mark, which the open and close stand for).
    private func dayMarks(_ symbol: String, _ coin: SimCoinGecko.Coin, at t: Double) -> (low: Double, high: Double) {
        let hour = Int64((t / 3_600).rounded(.down))
        if let known = hourMarks.withLock({ $0[symbol] }), known.hour == hour { return (known.low, known.high) }
        let prices = (0..<24).map { price(coin, at: Double(hour - Int64($0)) * 3_600) }
        let marks = (low: prices.min() ?? 0, high: prices.max() ?? 0)
        hourMarks.withLock { $0[symbol] = (hour, marks.low, marks.high) }
        return marks
    }

    /// Binance writes prices as strings with 8 decimals.
    static func decimal(_ value: Double) -> String {
        NumberText.fixed(value, decimals: 8)
    }
}
