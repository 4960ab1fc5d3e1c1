import Foundation
import SiseCore

/// The history of every change (SQLite or PostgreSQL): each aspect's last value
/// (`market_state`) and the events its changes made (`market_event`), with the coin's price then
/// and at each horizon. One writer per change across replicas: a change is written as a
/// compare-and-set from the value it was seen against — the replica that moves the state first
/// records the event; the others find the state moved and record nothing. An observation older
/// than the stored one never moves it back.
public struct MarketEventStore: Sendable {
    private let database: AppDatabase
    /// Baseline rows per statement.
    static let batch = 200

    public init(database: AppDatabase) {
        self.database = database
    }

    /// The values the store holds for `exchange`.
    public func states(_ exchange: Exchange) async throws -> [MarketAspect: String] {
        try await database.read { db in
            var states: [MarketAspect: String] = [:]
            for row in try await db.query("SELECT symbol, aspect, scope, value FROM market_state WHERE exchange = ?", exchange.rawValue) {
                guard let symbol = row.string("symbol"), let aspect = row.string("aspect").flatMap(MarketAspect.Aspect.init(rawValue:)),
                    let scope = row.string("scope"), let value = row.string("value")
                else { continue }
                states[MarketAspect(exchange: exchange, symbol: symbol, aspect: aspect, scope: scope)] = value
            }
            return states
        }
    }

    /// Since when each exchange's aspects have been watched (the first value stored), epoch ms.
    public func since() async throws -> [Exchange: [MarketAspect.Aspect: Int64]] {
        try await database.read { db in
            var since: [Exchange: [MarketAspect.Aspect: Int64]] = [:]
            for row in try await db.query("SELECT exchange, aspect, MIN(at) AS first FROM market_state GROUP BY exchange, aspect") {
                guard let exchange = row.string("exchange").flatMap(Exchange.init(rawValue:)),
                    let aspect = row.string("aspect").flatMap(MarketAspect.Aspect.init(rawValue:)), let first = row.int64("first")
                else { continue }
                since[exchange, default: [:]][aspect] = first
            }
            return since
        }
    }

    /// Writes `changes` seen at `at`; the events this writer recorded (a change another writer
    /// made first, or one seen earlier than the stored value, records none).
    /// - Parameter prices: each coin's KRW price at `at`, where known.
    public func apply(_ changes: [MarketEventRule.Change], at: Int64, prices: [String: Double]) async throws -> [MarketEvent] {
        guard !changes.isEmpty else { return [] }
        let baselines = changes.filter { $0.old == nil && $0.kind == nil }
        let moves = changes.filter { $0.old != nil || $0.kind != nil }
        return try await database.write { db in
            var start = 0
            while start < baselines.count {
                let chunk = baselines[start..<min(start + Self.batch, baselines.count)]
                let marks = Array(repeating: "(?, ?, ?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                var arguments: [any SQLBindable] = []
                for change in chunk { arguments += Self.key(change.aspect) + [change.new, at] }
                try await db.execute(
                    "INSERT INTO market_state (exchange, symbol, aspect, scope, value, at) VALUES \(marks) ON CONFLICT DO NOTHING",
                    arguments
                )
                start += Self.batch
            }
            var events: [MarketEvent] = []
            for change in moves {
                let moved: Int
                if let old = change.old {
                    moved = try await db.execute(
                        """
                        UPDATE market_state SET value = ?, at = ?
                        WHERE exchange = ? AND symbol = ? AND aspect = ? AND scope = ? AND value = ? AND at <= ?
                        """,
                        [change.new, at] + Self.key(change.aspect) + [old, at]
                    )
                } else {
                    moved = try await db.execute(
                        "INSERT INTO market_state (exchange, symbol, aspect, scope, value, at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        Self.key(change.aspect) + [change.new, at]
                    )
                }
                guard moved == 1, let kind = change.kind else { continue }
                let price = prices[change.aspect.symbol]
                let flag = change.flag?.encoded
                let rows = try await db.query(
                    "INSERT INTO market_event (exchange, symbol, kind, scope, flag, at, price) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    [change.aspect.exchange.rawValue, change.aspect.symbol, kind.rawValue, change.aspect.scope, flag, at, price]
                )
                guard let id = rows.first?.int64("id") else { continue }
                events.append(
                    MarketEvent(
                        id: id,
                        exchange: change.aspect.exchange,
                        symbol: change.aspect.symbol,
                        kind: kind,
                        scope: change.aspect.scope,
                        flag: change.flag,
                        at: at,
                        price: price
                    )
                )
            }
            return events
        }
    }

    /// Events newest first: of one exchange, one coin, some kinds, older than `before` (an id).
    public func events(
        exchange: Exchange? = nil,
        symbol: String? = nil,
        kinds: Set<MarketEvent.Kind> = [],
        before: Int64? = nil,
        limit: Int
    )
        async throws -> [MarketEvent]
    {
        var conditions: [String] = []
        var arguments: [any SQLBindable] = []
        if let exchange {
            conditions.append("exchange = ?")
            arguments.append(exchange.rawValue)
        }
        if let symbol {
            conditions.append("symbol = ?")
            arguments.append(symbol)
        }
        if !kinds.isEmpty {
            let sorted = kinds.map(\.rawValue).sorted()
            conditions.append("kind IN (" + Array(repeating: "?", count: sorted.count).joined(separator: ", ") + ")")
            arguments += sorted.map { $0 as any SQLBindable }
        }
        if let before {
            conditions.append("id < ?")
            arguments.append(before)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        arguments.append(max(1, min(limit, 500)))
        let bound = arguments
        return try await database.read { db in
            try await db.query("SELECT * FROM market_event \(filter) ORDER BY at DESC, id DESC LIMIT ?", bound).compactMap(Self.event)
        }
    }

    /// Events whose price at a horizon is due at `now` and not read yet (nor too late to read).
    public func due(now: Int64) async throws -> [(event: MarketEvent, horizon: MarketEvent.Horizon)] {
        try await database.read { db in
            var due: [(MarketEvent, MarketEvent.Horizon)] = []
            for horizon in MarketEvent.Horizon.allCases {
                let rows = try await db.query(
                    "SELECT * FROM market_event WHERE \(horizon.column) IS NULL AND at <= ? AND at >= ? ORDER BY at LIMIT 500",
                    now - horizon.span,
                    now - horizon.span - horizon.window
                )
                due += rows.compactMap(Self.event).map { ($0, horizon) }
            }
            return due
        }
    }

    /// Sets an event's price at `horizon` unless already set; whether this writer set it.
    @discardableResult
    public func setLater(_ id: Int64, _ horizon: MarketEvent.Horizon, price: Double) async throws -> Bool {
        try await database.write { db in
            try await db.execute("UPDATE market_event SET \(horizon.column) = ? WHERE id = ? AND \(horizon.column) IS NULL", price, id) == 1
        }
    }

    private static func key(_ aspect: MarketAspect) -> [any SQLBindable] {
        [aspect.exchange.rawValue, aspect.symbol, aspect.aspect.rawValue, aspect.scope]
    }

    private static func event(_ row: SQLRow) -> MarketEvent? {
        guard let id = row.int64("id"), let exchange = row.string("exchange").flatMap(Exchange.init(rawValue:)),
            let symbol = row.string("symbol"), let kind = row.string("kind").flatMap(MarketEvent.Kind.init(rawValue:)),
            let scope = row.string("scope"), let at = row.int64("at")
        else { return nil }
        var later: [MarketEvent.Horizon: Double] = [:]
        for horizon in MarketEvent.Horizon.allCases { later[horizon] = row.double(horizon.column) }
        return MarketEvent(
            id: id,
            exchange: exchange,
            symbol: symbol,
            kind: kind,
            scope: scope,
            flag: row.string("flag").map(MarketFlag.init(encoded:)),
            at: at,
            price: row.double("price"),
            later: later
        )
    }
}
