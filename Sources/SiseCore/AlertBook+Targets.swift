import Foundation

/// Wide rules (`AlertRule.target`): one member per market of the owner's list, each armed as a
/// rule on that market (so a tick costs what it costs for any rule on that market), re-armed only
/// when the list changes — members that stay keep their windows, candles and cool-downs.
extension AlertBook {
    /// A list a wide rule follows: an owner's favorites or holdings on one exchange.
    public struct ListKey: Hashable, Sendable {
        public let owner: String
        public let target: AlertTarget
        public let exchange: Exchange

        public init(owner: String, target: AlertTarget, exchange: Exchange) {
            self.owner = owner
            self.target = target
            self.exchange = exchange
        }

        init(_ rule: AlertRule, _ target: AlertTarget) {
            self.init(owner: rule.owner, target: target, exchange: rule.exchange)
        }
    }

    /// The lists some wide rule follows.
    public var followedLists: [ListKey] { Array(followers.keys) }

    /// The lists some wide rule follows that were never read: the engine reads them.
    public var unreadLists: [ListKey] { followers.keys.filter { lists[$0] == nil } }

    /// The list as it now stands: members of markets that left are dropped, new ones armed.
    public mutating func setList(_ key: ListKey, _ markets: Set<MarketID>) {
        lists[key] = markets
        for id in followers[key] ?? [] { follow(id) }
    }

    /// A list as last read (nil: never read).
    public func list(_ key: ListKey) -> Set<MarketID>? { lists[key] }

    /// The markets a wide rule watches now (empty for a rule on one market).
    public func memberMarkets(_ id: String) -> [MarketID] {
        (expanded[id] ?? [:]).keys.sorted()
    }

    mutating func addWide(_ rule: AlertRule) {
        guard let target = rule.target else { return }
        followers[ListKey(rule, target), default: []].insert(rule.id)
        follow(rule.id)
    }

    mutating func removeWide(_ rule: AlertRule) {
        guard let target = rule.target else { return }
        for (_, member) in expanded.removeValue(forKey: rule.id) ?? [:] {
            if let armed = members.removeValue(forKey: member) { disarm(armed.rule) }
        }
        unarmed[rule.id] = nil
        let key = ListKey(rule, target)
        followers[key]?.remove(rule.id)
        if followers[key]?.isEmpty == true {
            followers[key] = nil
            lists[key] = nil
        }
    }

    /// Arms the rule's members from its list: markets that left are dropped, new ones armed.
    private mutating func follow(_ id: String) {
        guard let rule = rules[id], let target = rule.target else { return }
        let listed = lists[ListKey(rule, target)] ?? []
        // A premium reads KRW markets only.
        let wanted = rule.isPremium ? listed.filter { $0.quote == "KRW" } : listed
        var current = expanded[id] ?? [:]
        for (market, member) in current where !wanted.contains(market) {
            if let armed = members.removeValue(forKey: member) { disarm(armed.rule) }
            current[market] = nil
        }
        // Markets in code order, up to the owner's bound: which ones a long list leaves out is
        // the same on every replica and after every restart.
        var left = 0
        for market in wanted.sorted() where current[market] == nil {
            guard pairCount(owner: rule.owner) < Self.pairsPerOwner else {
                left += 1
                continue
            }
            var one = rule
            one.id = id + "|" + market.code
            one.market = market
            one.lastFiredAt = nil
            guard arm(one) else { continue }
            members[one.id] = (id, one)
            current[market] = one.id
        }
        unarmed[id] = left > 0 ? left : nil
        expanded[id] = current.isEmpty ? nil : current
    }
}
