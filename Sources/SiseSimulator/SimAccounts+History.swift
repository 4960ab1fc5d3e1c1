import Foundation
import SiseCore

/// A simulated account's order history, as Upbit's and Bithumb's `GET /v1/orders/closed` and
/// `GET /v1/order` serve it: made once per key from its `history` switch (so many orders over so
/// many days, deterministic by seed; a sell never exceeds what was bought before it), answered
/// a window at a time (at most seven days, at most 1,000 orders, newest first unless
/// `order_by=asc` — the rest of a full window left out without a word, as the exchanges do), inside a budget of 30 private
/// calls a second per key (429 past it).
extension SimAccounts {
    /// What a key's history holds (`POST /_sim/accounts` … `"history":{"orders":50000,"days":1825}`).
    struct HistorySpec: Sendable, Codable {
        var orders: Int
        var days: Int
        var seed: UInt64?
        /// Leave `executed_funds` out of the closed orders (an older answer's shape): the
        /// client must read each order's trades.
        var omitFunds: Bool?
    }

    /// One simulated closed order (all filled).
    struct SimOrder: Sendable {
        let uuid: String
        let bid: Bool
        let market: String
        let at: Int64
        let volume: Decimal
        let funds: Decimal
        let fee: Decimal
    }

    /// Calls a key may make in a second before it is told to slow down.
    static let privatePerSecond = 30

    /// The orders of `spec` over its days up to the start of `now`'s day (seconds), oldest first.
    static func orders(_ spec: HistorySpec, venue: SimExchange?, now: Double) -> [SimOrder] {
        let count = min(max(spec.orders, 0), 200_000)
        let span = Int64(min(max(spec.days, 1), 3_650)) * 86_400_000
        // Up to the start of the day (UTC): two keys of one seed made moments apart hold the same orders.
        let end = Int64(now / 86_400) * 86_400_000
        let markets = (venue?.universe.markets.filter { $0.quote == "KRW" }.prefix(5)).map(Array.init) ?? []
        guard !markets.isEmpty, count > 0 else { return [] }
        var random = SimRandom(seed: spec.seed ?? 2_027)
        let times = (0..<count).map { _ in end - span + Int64(random.next() % UInt64(span)) }.sorted()
        var held: [String: Decimal] = [:]
        var orders: [SimOrder] = []
        orders.reserveCapacity(count)
        for (index, at) in times.enumerated() {
            let market = markets[Int(random.next() % UInt64(markets.count))]
            let price = Decimal(Int(market.price(at: Double(at) / 1_000).rounded()))
            let volume = Decimal(Int(random.next() % 9_000) + 1_000) / 10_000 * Decimal(max(1, Int(100_000 / max(market.basePrice, 1))))
            let wantsSell = random.next() % 5 < 2
            let bid = !(wantsSell && (held[market.code] ?? 0) >= volume)
            held[market.code, default: 0] += bid ? volume : -volume
            let funds = price * volume
            var fee = funds * 5 / 10_000
            var rounded = Decimal()
            NSDecimalRound(&rounded, &fee, 8, .plain)
            let uuid = String(format: "%08x-0000-4000-8000-%012x", UInt32(truncatingIfNeeded: spec.seed ?? 2_027), index)
            orders.append(SimOrder(uuid: uuid, bid: bid, market: market.code, at: at, volume: volume, funds: funds, fee: rounded))
        }
        return orders
    }

    /// Takes one of `access`'s private calls this second; false past the budget.
    static func withinBudget(_ s: inout State, _ exchange: Exchange, _ access: String, now: Double) -> Bool {
        let second = Int64(now)
        let id = Self.id(exchange, access)
        if s.budgetSecond[id] != second {
            s.budgetSecond[id] = second
            s.budgetUsed[id] = 0
        }
        s.budgetUsed[id, default: 0] += 1
        return (s.budgetUsed[id] ?? 0) <= privatePerSecond
    }

    /// `GET /v1/orders/closed`'s rows for a signed call, or the exchange's refusal.
    func closedOrders(_ exchange: Exchange, authorization: String?, query: String, from address: String) -> Result<String, Refusal> {
        let now = self.now(exchange)
        let venue = venues[exchange]
        return counted(exchange) { s in
            Self.check(&s, exchange, authorization, query, address, now: now, scope: "orders").flatMap { key -> Result<String, Refusal> in
                guard Self.withinBudget(&s, exchange, key.access, now: now) else { return .failure(Self.tooMany) }
                let fields = Self.fields(query)
                guard let start = fields["start_time"].flatMap({ Int64($0) }), let end = fields["end_time"].flatMap({ Int64($0) }), start <= end,
                    end - start <= 7 * 86_400_000
                else { return .failure(Refusal(status: 400, name: "validation_error", message: "조회 기간은 최대 7일입니다.")) }
                let limit = min(max(fields["limit"].flatMap { Int($0) } ?? 100, 1), 1_000)
                let all = Self.history(&s, key, exchange, venue: venue, now: now)
                let omit = key.history?.omitFunds == true
                var rows: [String] = []
                if fields["order_by"] == "asc" {
                    var index = Self.firstAtOrAfter(start, in: all)
                    while index < all.count, all[index].at <= end, rows.count < limit {
                        rows.append(Self.row(all[index], omitFunds: omit, trades: false))
                        index += 1
                    }
                } else {
                    var index = Self.firstAtOrAfter(end + 1, in: all) - 1
                    while index >= 0, all[index].at >= start, rows.count < limit {
                        rows.append(Self.row(all[index], omitFunds: omit, trades: false))
                        index -= 1
                    }
                }
                return .success("[" + rows.joined(separator: ",") + "]")
            }
        }
    }

    /// `GET /v1/order?uuid=`: one order with its trade.
    func order(_ exchange: Exchange, authorization: String?, query: String, from address: String) -> Result<String, Refusal> {
        let now = self.now(exchange)
        let venue = venues[exchange]
        return counted(exchange) { s in
            Self.check(&s, exchange, authorization, query, address, now: now, scope: "orders").flatMap { key -> Result<String, Refusal> in
                guard Self.withinBudget(&s, exchange, key.access, now: now) else { return .failure(Self.tooMany) }
                let uuid = Self.fields(query)["uuid"] ?? ""
                guard let order = Self.history(&s, key, exchange, venue: venue, now: now).first(where: { $0.uuid == uuid }) else {
                    return .failure(Refusal(status: 404, name: "order_not_found", message: "주문을 찾지 못했습니다."))
                }
                return .success(Self.row(order, omitFunds: true, trades: true))
            }
        }
    }

    static let tooMany = Refusal(status: 429, name: "too_many_requests", message: "Too many API requests.")

    /// The key's history, made at its first call and kept (oldest first).
    private static func history(_ s: inout State, _ key: Key, _ exchange: Exchange, venue: SimExchange?, now: Double) -> [SimOrder] {
        let id = Self.id(exchange, key.access)
        if let made = s.histories[id] { return made }
        let made = key.history.map { orders($0, venue: venue, now: now) } ?? []
        s.histories[id] = made
        return made
    }

    /// The index of the first order made at or after `time` (binary search; `orders` oldest first).
    private static func firstAtOrAfter(_ time: Int64, in orders: [SimOrder]) -> Int {
        var low = 0
        var high = orders.count
        while low < high {
            let middle = (low + high) / 2
            if orders[middle].at < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func row(_ order: SimOrder, omitFunds: Bool, trades: Bool) -> String {
        let created = createdAt(order.at)
        let price = order.volume > 0 ? order.funds / order.volume : 0
        var fields: [(String, String)] = [
            ("uuid", order.uuid), ("side", order.bid ? "bid" : "ask"), ("ord_type", "limit"), ("price", "\(price)"), ("state", "done"),
            ("market", order.market), ("created_at", created), ("volume", "\(order.volume)"), ("remaining_volume", "0"),
            ("reserved_fee", "\(order.fee)"), ("remaining_fee", "0"), ("paid_fee", "\(order.fee)"), ("locked", "0"),
            ("executed_volume", "\(order.volume)"),
        ]
        if !omitFunds { fields.append(("executed_funds", "\(order.funds)")) }
        var json = "{" + fields.map { JSONString.quoted($0.0) + ":" + JSONString.quoted($0.1) }.joined(separator: ",") + #","trades_count":1"#
        if trades {
            let trade: [(String, String)] = [
                ("market", order.market), ("uuid", order.uuid + "-t"), ("price", "\(price)"), ("volume", "\(order.volume)"),
                ("funds", "\(order.funds)"), ("side", order.bid ? "bid" : "ask"), ("created_at", created),
            ]
            json += #","trades":[{"# + trade.map { JSONString.quoted($0.0) + ":" + JSONString.quoted($0.1) }.joined(separator: ",") + "}]"
        }
        return json + "}"
    }

    /// `2026-12-04T09:24:01+09:00`, as Upbit writes times (`SimTime`'s integer calendar: a
    /// Calendar a row was most of a history call's time).
    static func createdAt(_ ms: Int64) -> String {
        let c = SimTime.civil(Int(ms / 1_000) + SimTime.kstOffset)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(c.year)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))+09:00"
    }
}
