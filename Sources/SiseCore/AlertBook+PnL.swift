import Foundation

/// P&L lines: a holding's (or the whole portfolio's) return in percent and unrealised P&L in KRW,
/// read by the engine once a second from the owner's positions valued at live prices — the
/// portfolio's own figures — rather than on each tick of each market.
extension AlertBook {
    /// What a P&L line reads: one holding of an owner, or (no exchange, no market) the owner's
    /// whole portfolio.
    public struct PnLKey: Hashable, Sendable {
        public let owner: String
        public let exchange: Exchange?
        public let market: MarketID?

        public init(owner: String, exchange: Exchange? = nil, market: MarketID? = nil) {
            self.owner = owner
            self.exchange = exchange
            self.market = market
        }

        init(_ rule: AlertRule) {
            let total = rule.target == .portfolio
            self.init(owner: rule.owner, exchange: total ? nil : rule.exchange, market: total ? nil : rule.market)
        }
    }

    struct PnLLines: Sendable {
        var percentAbove = AlertLadder(rising: true)
        var percentBelow = AlertLadder(rising: false)
        var amountAbove = AlertLadder(rising: true)
        var amountBelow = AlertLadder(rising: false)

        var isEmpty: Bool { percentAbove.isEmpty && percentBelow.isEmpty && amountAbove.isEmpty && amountBelow.isEmpty }
    }

    /// A return line re-arms 0.5 percentage points back; an amount line 0.5 % of its amount back
    /// (at least 1,000 KRW).
    public static let pnlPercentBand = 0.5

    static func amountBand(_ level: Double) -> Double { max(abs(level) * 0.005, 1_000) }

    /// Every holding or portfolio some P&L line reads.
    public var pnlWatches: [PnLKey] { Array(pnl.keys) }

    mutating func armPnL(_ rule: AlertRule, level: Double) {
        let key = PnLKey(rule)
        var lines = pnl[key] ?? PnLLines()
        switch rule.kind {
        case .pnlAbove: lines.percentAbove.insert(rule.id, level: level)
        case .pnlBelow: lines.percentBelow.insert(rule.id, level: level)
        case .pnlAmountAbove: lines.amountAbove.insert(rule.id, level: level)
        case .pnlAmountBelow: lines.amountBelow.insert(rule.id, level: level)
        default: return
        }
        pnl[key] = lines
    }

    mutating func disarmPnL(_ rule: AlertRule) {
        let key = PnLKey(rule)
        guard var lines = pnl[key] else { return }
        lines.percentAbove.remove(rule.id)
        lines.percentBelow.remove(rule.id)
        lines.amountAbove.remove(rule.id)
        lines.amountBelow.remove(rule.id)
        pnl[key] = lines.isEmpty ? nil : lines
    }

    /// A holding's (or the portfolio's) return (percent) and unrealised P&L (KRW) at `at`: the
    /// P&L lines they fire.
    public mutating func pnl(percent: Double, amount: Double, _ key: PnLKey, at: Int64) -> [Fired] {
        guard var lines = pnl[key], percent.isFinite, amount.isFinite else { return [] }
        var fired = lines.percentAbove.step(percent) { _ in Self.pnlPercentBand }.compactMap { lookup($0, percent) }
        fired += lines.percentBelow.step(percent) { _ in Self.pnlPercentBand }.compactMap { lookup($0, percent) }
        fired += lines.amountAbove.step(amount, band: Self.amountBand).compactMap { lookup($0, amount) }
        fired += lines.amountBelow.step(amount, band: Self.amountBand).compactMap { lookup($0, amount) }
        pnl[key] = lines
        return settle(fired, at: at)
    }
}
