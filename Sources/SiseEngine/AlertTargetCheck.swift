import Foundation
import SiseCore

/// What the store must hold for a rule to mean something, checked once for the API and the CLI:
/// a wide rule's list names a market on its exchange, and a P&L line has a holding to read (the
/// held market, or any holding for the portfolio's total). The words are the refusal's.
public struct AlertTargetCheck: Sendable {
    let lists: WatchLists

    public init(lists: WatchLists) {
        self.lists = lists
    }

    /// nil when the rule can be kept; otherwise why not, in the reader's language. `among`: the
    /// owner's rules as stored (the rule's old self, when it is changed, is counted as the new one).
    public func problem(_ rule: AlertRule, among rules: [AlertRule] = []) async throws -> (@Sendable (Language) -> String)? {
        if let problem = try await target(rule) { return problem }
        return try await pairs(rule, among: rules)
    }

    /// Whether the owner's enabled rules, this one with them, watch at most
    /// `AlertBook.pairsPerOwner` rule × market pairs (a wide rule: one a market of its list).
    func pairs(_ rule: AlertRule, among rules: [AlertRule]) async throws -> (@Sendable (Language) -> String)? {
        guard rule.enabled else { return nil }
        var sizes: [AlertBook.ListKey: Int] = [:]
        func watched(_ one: AlertRule) async throws -> Int {
            guard let target = one.target, target.isList else { return 1 }
            let key = AlertBook.ListKey(owner: one.owner, target: target, exchange: one.exchange)
            if let known = sizes[key] { return known }
            let count = try await lists.markets(key).count
            sizes[key] = count
            return count
        }
        var now = 0
        for other in rules where other.enabled && other.id != rule.id { now += try await watched(other) }
        let adding = try await watched(rule)
        let limit = AlertBook.pairsPerOwner
        guard now + adding > limit else { return nil }
        let held = now
        return {
            UIText.alertTooManyPairs(
                $0,
                [
                    "max": NumberText.grouped(Double(limit), decimals: 0), "now": NumberText.grouped(Double(held), decimals: 0),
                    "adding": NumberText.grouped(Double(adding), decimals: 0),
                ]
            )
        }
    }

    private func target(_ rule: AlertRule) async throws -> (@Sendable (Language) -> String)? {
        let exchange = rule.exchange.displayName
        switch rule.target {
        case let target? where target.isList:
            guard try await lists.markets(AlertBook.ListKey(owner: rule.owner, target: target, exchange: rule.exchange)).isEmpty else { return nil }
            return { UIText.alertTargetEmpty($0, ["target": target.name($0), "exchange": exchange]) }
        case .portfolio?:
            let held = try await lists.positions(owner: rule.owner) ?? []
            guard !held.contains(where: { $0.quantity > 0 }) else { return nil }
            return { UIText.alertNothingHeld($0) }
        default:
            guard rule.kind.isPnL else { return nil }
            let held = try await lists.markets(AlertBook.ListKey(owner: rule.owner, target: .holdings, exchange: rule.exchange))
            guard !held.contains(rule.market) else { return nil }
            return { UIText.alertNotHeld($0, ["exchange": exchange]) }
        }
    }
}
