import Foundation
import SiseCore
import Synchronization

/// The simulated exchange's shared state: the listings (immutable), and behind one lock the
/// fault switches, the rate limiter, the counters and the 52-week cache.
final class SimExchange: Sendable {
    let universe: SimUniverse
    let configuration: SimulatorConfiguration
    /// Which exchange this one plays (each has its own listings, limits, faults and counters).
    let venue: Exchange

    private struct State {
        var faults: SimFaults
        var limiter = SimRateLimit()
        var stats = SimStats()
        var random: SimRandom
        var yearCache: [String: (day: Double, value: SimTickerState.YearExtremes)] = [:]
        /// Stream frames reuse a market's day statistics for 100 ms, so high rates stay cheap.
        var streamCache: [String: (bucket: Int64, value: SimTickerState)] = [:]
        var geckoCalls: [Double] = []
        /// Prices set by hand (`POST /_sim/price`), by market code, and a count of their changes.
        var pins: [String: Double] = [:]
        var pinChanges = 0
        /// Flags set by hand (`POST /_sim/flag`), by market code: they replace the listing's own.
        var flags: [String: SimFlag] = [:]
        /// Surges set by hand (`POST /_sim/surge`), by market code: since when, and at how many
        /// times the market's usual pace it trades from then on.
        var surges: [String: (since: Double, factor: Double)] = [:]
    }

    private let state: Mutex<State>
    let hub = SimStreamHub()
    let coinGecko: SimCoinGecko

    init(configuration: SimulatorConfiguration, venue: Exchange) {
        self.configuration = configuration
        self.venue = venue
        universe = SimUniverse(
            seed: configuration.seed,
            krwCount: configuration.krwMarkets,
            hostileNames: configuration.hostileNames,
            venue: venue
        )
        var initial = State(faults: configuration.faults, random: SimRandom(seed: configuration.seed ^ 0xFA17))
        initial.limiter.limit = venue.simulatedRequestsPerSecond
        state = Mutex(initial)
        coinGecko = SimCoinGecko(universe: universe, seed: configuration.seed)
    }

    var now: Double { configuration.now() }

    var faults: SimFaults { state.withLock { $0.faults } }

    func updateFaults(_ patch: SimFaults.Patch) -> SimFaults {
        let faults = state.withLock {
            $0.faults.apply(patch)
            return $0.faults
        }
        if patch.wsDropNow == true { hub.dropAll() }
        if patch.bookDropNow == true { hub.dropAll(watchingDepth: true) }
        return faults
    }

    /// Sets a market's price by hand (nil gives it back to its walk): every REST answer and
    /// stream frame shows it from now on, and open streams send the market at once, so a test can
    /// make a price move and time how soon each face shows it.
    func pin(_ code: String, price: Double?) {
        state.withLock { s in
            s.pins[code] = price
            s.pinChanges += 1
        }
    }

    /// The pinned codes, and how many times pins changed (a stream compares it with the last it saw).
    var pins: (changes: Int, codes: Set<String>) { state.withLock { ($0.pinChanges, Set($0.pins.keys)) } }

    /// Makes a market trade `factor` times its usual pace from now on (nil or ≤ 1: its usual pace
    /// again): its rolling 24-hour traded value grows by what the surge adds, a minute at a time.
    func surge(_ code: String, factor: Double?) {
        let now = self.now
        state.withLock { $0.surges[code] = factor.flatMap { $0 > 1 ? (now, $0) : nil } }
    }

    /// A ticker with what was set by hand: its pinned price, if the market has one (high and low
    /// widened to hold it), and the value a surge has added to its day.
    private func pinned(_ ticker: SimTickerState, _ market: SimMarket) -> SimTickerState {
        let (pin, surge) = state.withLock { ($0.pins[market.code], $0.surges[market.code]) }
        guard pin != nil || surge != nil else { return ticker }
        var pinned = ticker
        if let price = pin {
            pinned.price = price
            pinned.high = max(pinned.high, price)
            pinned.low = min(pinned.low, price)
        }
        if let surge {
            let elapsed = min(86_400, max(0, Double(ticker.timestamp) / 1_000 - surge.since))
            let added = (surge.factor - 1) * market.dailyValue * elapsed / 86_400
            pinned.value24h += added
            pinned.dayValue += added
            pinned.volume24h = pinned.value24h / max(pinned.price, 1e-12)
            pinned.dayVolume = pinned.dayValue / max(pinned.price, 1e-12)
        }
        return pinned
    }

    /// Clears faults, counters, bans and caches.
    func reset() {
        state.withLock {
            $0.faults = SimFaults()
            $0.limiter = SimRateLimit()
            $0.stats = SimStats()
            $0.pins = [:]
            $0.pinChanges += 1
            $0.flags = [:]
            $0.surges = [:]
        }
        hub.dropAll()
    }

    /// Flags a market by hand (a clear flag lifts the listing's own), from now on in every list
    /// the venue publishes its flags in.
    func setFlag(_ code: String, _ flag: SimFlag) {
        state.withLock { $0.flags[code] = flag }
    }

    /// The market's flag now: the one set by hand, else the listing's own.
    func flag(_ market: SimMarket) -> SimFlag {
        state.withLock { $0.flags[market.code] } ?? SimFlag(warning: market.warning, cautions: market.cautions)
    }

    func count(_ service: String, _ key: String) {
        state.withLock { $0.stats.count(service, key) }
    }

    func statsJSON() -> String {
        state.withLock { $0.stats.json(peak: $0.limiter.peak) }
    }

    /// What happens to one exchange request before its handler runs.
    enum Gate {
        case proceed(remaining: Int, malformed: Bool)
        case fail(status: Int, remaining: Int, retryAfter: Int?)
    }

    /// - Parameter origin: the request carried an `Origin` header: Upbit then counts it in the
    ///   `origin` group (1 per 10 s) instead of its own.
    func gate(_ requested: String, origin: Bool = false) -> Gate {
        let now = self.now
        let group = origin ? "origin" : requested
        return state.withLock { s in
            s.stats.count("upbit", group)
            if s.faults.failNext > 0 {
                s.faults.failNext -= 1
                let status = s.faults.failNextStatus
                if status == 418 { s.limiter.ban(group, seconds: 30, at: now) }
                let retry = status == 418 ? 30 : status == 429 && s.faults.retryAfterSeconds > 0 ? s.faults.retryAfterSeconds : nil
                return .fail(status: status, remaining: 0, retryAfter: retry)
            }
            switch s.limiter.admit(group, at: now, enforce: s.faults.rateLimit) {
            case .limited:
                s.stats.refuse("upbit", group)
                return .fail(status: 429, remaining: 0, retryAfter: nil)
            case .banned(let retry):
                s.stats.refuse("upbit", group)
                return .fail(status: 418, remaining: 0, retryAfter: retry)
            case .allowed(let remaining):
                if s.faults.errorRate > 0, Double.random(in: 0..<1, using: &s.random) < s.faults.errorRate {
                    return .fail(status: s.faults.errorStatus, remaining: remaining, retryAfter: nil)
                }
                let malformed =
                    s.faults.malformedRate > 0
                    && Double.random(in: 0..<1, using: &s.random) < s.faults.malformedRate
                return .proceed(remaining: remaining, malformed: malformed)
            }
        }
    }

    enum UpgradeGate: Equatable {
        case upgrade(remaining: Int)
        /// 429 in this group (`origin` or `websocket-connect`).
        case limited(group: String)
    }

    /// A WebSocket upgrade: the `Origin` rule, then 5 connects per second per client address.
    func upgradeGate(origin: Bool, client: String) -> UpgradeGate {
        let now = self.now
        return state.withLock { s in
            s.stats.count("upbit", "websocket")
            let enforce = s.faults.rateLimit
            if origin, case .limited = s.limiter.admit("origin", at: now, enforce: enforce) {
                s.stats.refuse("upbit", "origin")
                return .limited(group: "origin")
            }
            switch s.limiter.admit("websocket-connect@\(client)", at: now, enforce: enforce) {
            case .allowed(let remaining): return .upgrade(remaining: remaining)
            case .limited, .banned:
                s.stats.refuse("upbit", "websocket-connect")
                return .limited(group: "websocket-connect")
            }
        }
    }

    /// A ticker for a stream frame: the day's walk is sampled every half hour, so it is walked
    /// again only when a new sample mark has passed; between, the price and traded value of now
    /// (and the day's high and low widened by every price the stream has shown, as a trade tape would).
    func streamTicker(_ market: SimMarket, atMilliseconds ms: Int64) -> SimTickerState {
        let bucket = SimTickerState.sampleBucket(ofMilliseconds: ms)
        if var hit = state.withLock({ $0.streamCache[market.code] }), hit.bucket == bucket {
            hit.value.reprice(market: market, atMilliseconds: ms)
            return pinned(hit.value, market)
        }
        let fresh = walked(market, atMilliseconds: ms)
        state.withLock { $0.streamCache[market.code] = (bucket, fresh) }
        return pinned(fresh, market)
    }

    enum GeckoGate {
        case proceed
        case limited(retryAfter: Int)
    }

    /// Counts a CoinGecko call by path and applies the per-minute budget.
    func geckoGate(_ path: String) -> GeckoGate {
        let now = self.now
        return state.withLock { s in
            s.stats.count("coingecko", path)
            s.geckoCalls.removeAll { $0 <= now - 60 }
            guard s.geckoCalls.count < s.faults.geckoPerMinute else {
                s.stats.refuse("coingecko", path)
                let retry = s.geckoCalls.first.map { Int(($0 + 60 - now).rounded(.up)) } ?? 60
                return .limited(retryAfter: max(1, retry))
            }
            s.geckoCalls.append(now)
            return .proceed
        }
    }

    func ticker(_ market: SimMarket, atMilliseconds ms: Int64) -> SimTickerState {
        pinned(walked(market, atMilliseconds: ms), market)
    }

    /// The market's state on its price walk (no pin).
    private func walked(_ market: SimMarket, atMilliseconds ms: Int64) -> SimTickerState {
        let day = SimTickerState.dayStart(ofMilliseconds: ms)
        let cached = state.withLock { s -> SimTickerState.YearExtremes? in
            guard let hit = s.yearCache[market.code], hit.day == day else { return nil }
            return hit.value
        }
        let year = cached ?? SimTickerState.YearExtremes(market: market, dayStart: day)
        if cached == nil { state.withLock { $0.yearCache[market.code] = (day, year) } }
        return SimTickerState(market: market, atMilliseconds: ms, year: year)
    }
}
