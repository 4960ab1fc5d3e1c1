import Foundation

/// Every enabled alert, arranged for evaluation on each tick (see `AlertLadder`): a tick of a
/// market nobody watches costs one dictionary miss; a tick of a watched market costs O(1) per
/// ladder when nothing fires.
///
/// Semantics: a rule fires when its condition holds and did not hold at the previous evaluation
/// (a new rule counts as "did not hold", so one already true fires at its first evaluation);
/// after firing it re-arms only once the value has gone back past the hysteresis band. A
/// one-shot rule fires once and leaves the book (the caller disables it); a recurring rule
/// stays, and a crossing within its cool-down after the last firing is passed over.
public struct AlertBook: Sendable {
    /// Price rules re-arm once the price is 0.5 % back from the line.
    public static let priceBand = 0.005
    /// Premium rules re-arm 0.2 percentage points back from the line.
    public static let premiumBand = 0.2
    /// Move rules re-arm once the move is back under 80 % of its percent.
    public static let moveBand = 0.2
    /// Volume spikes re-arm once the pace is back under 80 % of the factor.
    public static let spikeBand = 0.2
    /// 체결강도 rules re-arm 5 percentage points back from the line.
    public static let strengthBand = 5.0

    struct Key: Hashable, Sendable {
        let exchange: Exchange
        let market: MarketID
    }

    /// A market's premium rules against one venue: lines that fire on crossing, and lines that
    /// must hold a while first (one `AlertHold` each).
    struct PremiumLines: Sendable {
        var above = AlertLadder(rising: true)
        var below = AlertLadder(rising: false)
        var held: [String: AlertHold] = [:]

        var isEmpty: Bool { above.isEmpty && below.isEmpty && held.isEmpty }
    }

    struct MarketAlerts: Sendable {
        var above = AlertLadder(rising: true)
        var below = AlertLadder(rising: false)
        /// By venue (KRW-USDT's 테더 김프 lines under Binance's key: they have no venue).
        var premium: [GlobalVenue: PremiumLines] = [:]
        var moves: [Int: (window: MoveWindow, ladder: AlertLadder)] = [:]
        /// Volume spikes by window (minutes): one pace reading shared by every factor.
        var spikes: [Int: (window: VolumeWindow, ladder: AlertLadder)] = [:]
        /// Indicator rules by candle interval (minutes): the closes, and the rules by signal (each
        /// distinct signal is read once a close).
        var indicators: [Int: IndicatorRules] = [:]
        /// 체결강도 lines (read from the market's tape, not its ticks).
        var strengthAbove = AlertLadder(rising: true)
        var strengthBelow = AlertLadder(rising: false)

        var isEmpty: Bool {
            above.isEmpty && below.isEmpty && premium.isEmpty && moves.isEmpty && spikes.isEmpty && indicators.isEmpty && strengthAbove.isEmpty
                && strengthBelow.isEmpty
        }
    }

    struct IndicatorRules: Sendable {
        var candles: ClosingCandles
        var signals: [IndicatorSignal: Set<String>] = [:]
        /// Whether the exchange's own candles were asked for (done once a series).
        var seeded = false
    }

    var markets: [Key: MarketAlerts] = [:]
    /// Every enabled rule (a wide rule once, however many markets its list has).
    public internal(set) var rules: [String: AlertRule] = [:]
    /// P&L lines by the owner's holding (or whole portfolio) they read.
    var pnl: [PnLKey: PnLLines] = [:]
    /// Wide rules' members by their id (`rule id|market`): the rule on that market.
    var members: [String: (parent: String, rule: AlertRule)] = [:]
    /// Each wide rule's members: market → member id.
    var expanded: [String: [MarketID: String]] = [:]
    /// The lists wide rules follow, as last read (absent: not read yet).
    var lists: [ListKey: Set<MarketID>] = [:]
    /// The wide rules that follow each list.
    var followers: [ListKey: Set<String>] = [:]
    /// Rule × market pairs armed per owner: a rule on one market counts one, a wide rule one per
    /// member. A wide rule arms no member past `pairsPerOwner` (its list may grow after it was
    /// accepted); the API refuses a rule that would take an owner past it.
    var pairs: [String: Int] = [:]
    /// Wide rules that left markets of their list unarmed for the owner's bound: how many.
    var unarmed: [String: Int] = [:]

    /// The most rule × market pairs one owner's rules may watch: 200 rules on one market each
    /// are 200 pairs; a rule on 440 favorites is 440 (so four of them, not the 100,000 the rule
    /// and favorite caps alone allowed, each read on every candle close and seeded upstream).
    public static let pairsPerOwner = 2_000

    public init() {}

    /// The pairs the owner's rules watch now.
    public func pairCount(owner: String) -> Int { pairs[owner] ?? 0 }
    /// Every owner's pairs.
    public var pairCount: Int { pairs.values.reduce(0, +) }
    /// The markets a wide rule left unarmed for its owner's bound (0 when none).
    public func unarmedMarkets(_ id: String) -> Int { unarmed[id] ?? 0 }
    /// The indicator series kept (one per exchange, market and interval, shared by every rule).
    public var seriesCount: Int { markets.values.reduce(0) { $0 + $1.indicators.count } }

    /// The exchanges some enabled rule watches (their feeds must run).
    public var exchanges: Set<Exchange> { Set(markets.keys.map(\.exchange)) }

    /// Whether any rule watches the market (a cheap test before computing a premium).
    public func watches(_ exchange: Exchange, _ market: MarketID) -> Bool { markets[Key(exchange: exchange, market: market)] != nil }

    /// The venues the market's premium rules measure against (empty: none watches its premium).
    public func premiumVenues(_ exchange: Exchange, _ market: MarketID) -> [GlobalVenue] {
        markets[Key(exchange: exchange, market: market)].map { Array($0.premium.keys) } ?? []
    }

    /// Every (exchange, market, venue) some premium rule watches.
    public var premiumWatches: [(exchange: Exchange, market: MarketID, venue: GlobalVenue)] {
        markets.flatMap { key, alerts in alerts.premium.keys.map { (key.exchange, key.market, $0) } }
    }

    /// Adds (or replaces) a rule; a disabled one only leaves the book. A wide rule arms one
    /// member per market of its list as the book knows it (`setList`).
    public mutating func insert(_ rule: AlertRule) {
        remove(rule.id)
        guard rule.enabled else { return }
        if let target = rule.target {
            guard target.takes(rule.kind) else { return }
            if target.isList {
                rules[rule.id] = rule
                addWide(rule)
                return
            }
        }
        rules[rule.id] = rule
        if !arm(rule) { rules[rule.id] = nil }
    }

    /// Places the rule's id in its market's ladders and windows; false when it cannot be armed.
    mutating func arm(_ rule: AlertRule) -> Bool {
        guard place(rule) else { return false }
        pairs[rule.owner, default: 0] += 1
        return true
    }

    private mutating func uncount(_ owner: String) {
        let left = (pairs[owner] ?? 0) - 1
        pairs[owner] = left > 0 ? left : nil
    }

    private mutating func place(_ rule: AlertRule) -> Bool {
        let key = Key(exchange: rule.exchange, market: rule.market)
        let level = NSDecimalNumber(decimal: rule.value).doubleValue
        var alerts = markets[key] ?? MarketAlerts()
        switch rule.kind {
        case .above: alerts.above.insert(rule.id, level: level)
        case .below: alerts.below.insert(rule.id, level: level)
        case .premiumAbove, .premiumBelow:
            let venue = rule.premiumVenue ?? .binance
            var lines = alerts.premium[venue] ?? PremiumLines()
            let rising = rule.kind == .premiumAbove
            if let minutes = rule.holdMinutes {
                lines.held[rule.id] = AlertHold(level: level, rising: rising, span: Int64(minutes) * 60_000, band: Self.premiumBand)
            } else if rising {
                lines.above.insert(rule.id, level: level)
            } else {
                lines.below.insert(rule.id, level: level)
            }
            alerts.premium[venue] = lines
        case .move:
            let minutes = rule.windowMinutes ?? 10
            var entry = alerts.moves[minutes] ?? (MoveWindow(span: Int64(minutes) * 60_000), AlertLadder(rising: true))
            entry.ladder.insert(rule.id, level: level)
            alerts.moves[minutes] = entry
        case .strengthAbove: alerts.strengthAbove.insert(rule.id, level: level)
        case .strengthBelow: alerts.strengthBelow.insert(rule.id, level: level)
        case .pnlAbove, .pnlBelow, .pnlAmountAbove, .pnlAmountBelow:
            // Read from the owner's portfolio each second, not from the market's ticks.
            armPnL(rule, level: level)
            return true
        case .indicator:
            guard let signal = rule.indicator else { return false }
            let minutes = rule.windowMinutes ?? 60
            var entry = alerts.indicators[minutes] ?? IndicatorRules(candles: ClosingCandles(minutes: minutes))
            entry.signals[signal, default: []].insert(rule.id)
            alerts.indicators[minutes] = entry
        case .volumeSpike:
            let minutes = rule.windowMinutes ?? 5
            var entry = alerts.spikes[minutes] ?? (VolumeWindow(span: Int64(minutes) * 60_000), AlertLadder(rising: true))
            entry.ladder.insert(rule.id, level: level)
            alerts.spikes[minutes] = entry
        }
        markets[key] = alerts
        return true
    }

    /// The rule now belongs to `owner` (a device's rules joining an account); its state stays.
    public mutating func setOwner(_ id: String, _ owner: String) {
        guard var rule = rules[id], rule.owner != owner else { return }
        rule.owner = owner
        if rule.target?.isList == true || rule.kind.isPnL {
            // Its list (or its holdings) are the new owner's: re-armed from them.
            remove(id)
            insert(rule)
        } else {
            // Its one pair moves with it.
            if let old = rules[id]?.owner {
                uncount(old)
                pairs[owner, default: 0] += 1
            }
            rules[id] = rule
        }
    }

    public mutating func remove(_ id: String) {
        guard let rule = rules.removeValue(forKey: id) else { return }
        if rule.target?.isList == true {
            removeWide(rule)
        } else {
            disarm(rule)
        }
    }

    /// Takes the rule's id out of its market's ladders and windows.
    mutating func disarm(_ rule: AlertRule) {
        uncount(rule.owner)
        if rule.kind.isPnL { return disarmPnL(rule) }
        let id = rule.id
        let key = Key(exchange: rule.exchange, market: rule.market)
        guard var alerts = markets[key] else { return }
        alerts.above.remove(id)
        alerts.below.remove(id)
        alerts.strengthAbove.remove(id)
        alerts.strengthBelow.remove(id)
        for (venue, var lines) in alerts.premium {
            lines.above.remove(id)
            lines.below.remove(id)
            lines.held[id] = nil
            alerts.premium[venue] = lines.isEmpty ? nil : lines
        }
        for (minutes, var entry) in alerts.moves {
            entry.ladder.remove(id)
            alerts.moves[minutes] = entry.ladder.isEmpty ? nil : entry
        }
        for (minutes, var entry) in alerts.spikes {
            entry.ladder.remove(id)
            alerts.spikes[minutes] = entry.ladder.isEmpty ? nil : entry
        }
        if let signal = rule.indicator, let minutes = rule.windowMinutes, var entry = alerts.indicators[minutes] {
            entry.signals[signal]?.remove(id)
            if entry.signals[signal]?.isEmpty == true { entry.signals[signal] = nil }
            alerts.indicators[minutes] = entry.signals.isEmpty ? nil : entry
        }
        markets[key] = alerts.isEmpty ? nil : alerts
    }

    /// A fired rule with what fired it.
    public struct Fired: Sendable, Equatable {
        public var rule: AlertRule
        /// The move or premium (percent) that fired a move or premium rule; the pace (times the
        /// usual) that fired a volume spike.
        public var observed: Double?
        /// A wide rule's member that fired (`rule` is then the rule on that member's market).
        public var member: String? = nil
    }

    /// A price tick at `at` (epoch ms): the rules it fires. One-shot rules leave the book.
    public mutating func price(_ price: Double, exchange: Exchange, market: MarketID, at: Int64) -> [Fired] {
        let key = Key(exchange: exchange, market: market)
        // A time before 1970 is no exchange's (and would take the windows to the arithmetic's edge).
        guard var alerts = markets[key], price.isFinite, price > 0, at >= 0 else { return [] }
        var fired = alerts.above.step(price) { $0 * Self.priceBand }.compactMap { lookup($0, nil) }
        fired += alerts.below.step(price) { $0 * Self.priceBand }.compactMap { lookup($0, nil) }
        for (minutes, var entry) in alerts.moves {
            let move = entry.window.add(price, at: at)
            fired += entry.ladder.step(move) { $0 * Self.moveBand }.compactMap { lookup($0, move) }
            alerts.moves[minutes] = entry
        }
        for (minutes, var entry) in alerts.indicators {
            // Read only when a candle closes: a forming candle never fires (no repaint).
            if entry.candles.add(price, at: at) {
                let closes = entry.candles.closes
                for (signal, ids) in entry.signals where signal.fires(closes) == true {
                    fired += ids.sorted().compactMap { lookup($0, closes.last) }
                }
            }
            alerts.indicators[minutes] = entry
        }
        markets[key] = alerts
        return settle(fired, at: at)
    }

    /// The markets some 체결강도 rule watches (their tapes must be carried).
    public var strengthWatches: [(exchange: Exchange, market: MarketID)] {
        markets.compactMap { key, alerts in alerts.strengthAbove.isEmpty && alerts.strengthBelow.isEmpty ? nil : (key.exchange, key.market) }
    }

    /// The market's 체결강도 (percent) at `at`, read from its tape: the strength rules it fires.
    public mutating func strength(_ percent: Double, exchange: Exchange, market: MarketID, at: Int64) -> [Fired] {
        let key = Key(exchange: exchange, market: market)
        guard var alerts = markets[key], percent.isFinite else { return [] }
        var fired = alerts.strengthAbove.step(percent) { _ in Self.strengthBand }.compactMap { lookup($0, percent) }
        fired += alerts.strengthBelow.step(percent) { _ in Self.strengthBand }.compactMap { lookup($0, percent) }
        markets[key] = alerts
        return settle(fired, at: at)
    }

    /// The indicator series (exchange, market, interval in minutes) whose exchange candles were
    /// never asked for: the engine seeds them (a new rule need not wait hours of closes).
    public var unseeded: [(exchange: Exchange, market: MarketID, minutes: Int)] {
        markets.flatMap { key, alerts in alerts.indicators.filter { !$0.value.seeded }.map { (key.exchange, key.market, $0.key) } }
    }

    /// The exchange's closed candles of a series (start epoch ms, close; oldest first): history
    /// before what the ticks have closed. The series counts as seeded even when none came.
    public mutating func seed(_ exchange: Exchange, _ market: MarketID, minutes: Int, _ candles: [(start: Int64, close: Double)]) {
        let key = Key(exchange: exchange, market: market)
        guard var entry = markets[key]?.indicators[minutes] else { return }
        entry.candles.seed(candles)
        entry.seeded = true
        markets[key]?.indicators[minutes] = entry
    }

    /// The market's rolling 24-hour traded value at `at` (the ticker's 거래대금): the volume
    /// spikes it fires.
    public mutating func tradeValue(_ value: Double, exchange: Exchange, market: MarketID, at: Int64) -> [Fired] {
        let key = Key(exchange: exchange, market: market)
        guard var alerts = markets[key], !alerts.spikes.isEmpty, at >= 0 else { return [] }
        var fired: [Fired] = []
        for (minutes, var entry) in alerts.spikes {
            if let pace = entry.window.add(value, at: at) {
                fired += entry.ladder.step(pace) { $0 * Self.spikeBand }.compactMap { lookup($0, pace) }
            }
            alerts.spikes[minutes] = entry
        }
        markets[key] = alerts
        return settle(fired, at: at)
    }

    /// The market's premium (percent) against `venue` at `at`: the premium rules it fires.
    public mutating func premium(
        _ percent: Double,
        exchange: Exchange,
        market: MarketID,
        venue: GlobalVenue = .binance,
        at: Int64
    ) -> [Fired] {
        let key = Key(exchange: exchange, market: market)
        guard var alerts = markets[key], var lines = alerts.premium[venue], percent.isFinite else { return [] }
        var fired = lines.above.step(percent) { _ in Self.premiumBand }.compactMap { lookup($0, percent) }
        fired += lines.below.step(percent) { _ in Self.premiumBand }.compactMap { lookup($0, percent) }
        for id in lines.held.keys.sorted() {
            guard var hold = lines.held[id] else { continue }
            if hold.step(percent, at: at), let one = lookup(id, percent) { fired.append(one) }
            lines.held[id] = hold
        }
        alerts.premium[venue] = lines
        markets[key] = alerts
        return settle(fired, at: at)
    }

    func lookup(_ id: String, _ observed: Double?) -> Fired? {
        if let rule = rules[id] { return Fired(rule: rule, observed: observed) }
        // A wide rule's member: the rule as its market's, under the rule's own id.
        guard let member = members[id] else { return nil }
        var rule = member.rule
        rule.id = member.parent
        return Fired(rule: rule, observed: observed, member: id)
    }

    /// One-shot rules leave; recurring ones note the firing, or pass it over within their cool-down.
    mutating func settle(_ fired: [Fired], at: Int64) -> [Fired] {
        var out: [Fired] = []
        for var firing in fired {
            if !firing.rule.recurring {
                // A one-shot wide rule: the first of its markets to fire ends it.
                guard rules[firing.rule.id] != nil else { continue }
                remove(firing.rule.id)
                firing.rule.enabled = false
            } else if let member = firing.member {
                // Each market of a wide rule keeps its own cool-down.
                if let last = members[member]?.rule.lastFiredAt, at - last < Int64(firing.rule.cooldownSeconds) * 1_000 { continue }
                members[member]?.rule.lastFiredAt = at
                rules[firing.rule.id]?.lastFiredAt = at
            } else {
                if let last = firing.rule.lastFiredAt, at - last < Int64(firing.rule.cooldownSeconds) * 1_000 { continue }
                rules[firing.rule.id]?.lastFiredAt = at
            }
            firing.rule.lastFiredAt = at
            out.append(firing)
        }
        return out
    }
}
