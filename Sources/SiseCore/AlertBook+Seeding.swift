/// The order indicator series are seeded in (owners taking turns) and whether a rule still waits
/// for its candles.
extension AlertBook {
    /// One unseeded series: where, and the candle length.
    public struct Series: Hashable, Sendable, Comparable {
        public let exchange: Exchange
        public let market: MarketID
        public let minutes: Int

        public static func < (a: Series, b: Series) -> Bool {
            (a.exchange.rawValue, a.market, a.minutes) < (b.exchange.rawValue, b.market, b.minutes)
        }
    }

    /// The unseeded series in the order they are asked for: each waiting owner's next one in
    /// turn, owner after owner, so an owner with hundreds waiting delays another's first by one
    /// call per owner, not by hundreds (a series several owners wait on is asked for once).
    public func unseededInTurn(on exchange: Exchange? = nil) -> [Series] {
        var queues: [String: [Series]] = [:]
        for (key, alerts) in markets where exchange == nil || key.exchange == exchange {
            for (minutes, entry) in alerts.indicators where !entry.seeded {
                let series = Series(exchange: key.exchange, market: key.market, minutes: minutes)
                let ids = entry.signals.values.reduce(into: Set<String>()) { $0.formUnion($1) }
                for owner in Set(ids.compactMap(owner(of:))) { queues[owner, default: []].append(series) }
            }
        }
        var lines = queues.keys.sorted().map { queues[$0, default: []].sorted()[...] }
        var taken: Set<Series> = []
        var order: [Series] = []
        while !lines.isEmpty {
            for index in lines.indices {
                while let next = lines[index].popFirst() {
                    guard taken.insert(next).inserted else { continue }
                    order.append(next)
                    break
                }
            }
            lines.removeAll(where: \.isEmpty)
        }
        return order
    }

    /// The owner of a rule or a wide rule's member, by id.
    func owner(of id: String) -> String? { rules[id]?.owner ?? members[id]?.rule.owner }

    /// Whether an indicator rule still waits for its candles (a wide rule: any of its markets):
    /// it says "준비 중" until they came, and fires from the first close after.
    public func isPreparing(_ id: String) -> Bool {
        guard let rule = rules[id], rule.kind == .indicator else { return false }
        let minutes = rule.windowMinutes ?? 60
        let watched = rule.target?.isList == true ? memberMarkets(id) : [rule.market]
        return watched.contains { markets[Key(exchange: rule.exchange, market: $0)]?.indicators[minutes]?.seeded == false }
    }
}
