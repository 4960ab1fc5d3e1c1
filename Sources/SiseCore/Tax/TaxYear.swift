import Foundation

/// One coin's tax year: from what was held on 1 January to what a year of trades made of it.
public struct CoinTaxYear: Equatable, Sendable {
    /// Which cost the year opened with.
    public enum Opening: String, Equatable, Sendable, Codable {
        /// 2027: the deemed price at 2027-01-01 00:00 was higher than what was paid.
        case deemed
        /// 2027: what was paid was at least the deemed price (or no deemed price is known).
        case actual
        /// After 2027: the last year's closing cost.
        case carried
    }

    public var coin: String
    public var openingQuantity: Decimal = 0
    /// What the opening units cost as paid (2027: before the deemed price).
    public var openingActualCost: Decimal = 0
    /// 2027: the deemed price × the opening quantity; nil in other years or without a price.
    public var openingDeemedCost: Decimal?
    public var openingCost: Decimal = 0
    public var opening: Opening = .carried
    public var boughtQuantity: Decimal = 0
    /// Purchases with their fees (and units transferred in with their stated cost).
    public var boughtCost: Decimal = 0
    /// The year's unit cost: the total average, or the moving average at the year's end.
    public var averageCost: Decimal = 0
    public var soldQuantity: Decimal = 0
    public var proceeds: Decimal = 0
    /// Sale and transfer fees: the year's expenses beside the cost of what was sold.
    public var fees: Decimal = 0
    public var costOfSold: Decimal = 0
    public var closingQuantity: Decimal = 0
    public var closingCost: Decimal = 0
    /// Units held at some point of the year that came without a cost (airdrops, gifts).
    public var uncostedQuantity: Decimal = 0
    /// The year's events in time order, each disposal with its cost (the CSV's rows).
    public var lines: [TaxLine] = []

    /// Proceeds less fees less the cost of what was sold (a loss is negative).
    public var gain: Decimal { proceeds - fees - costOfSold }

    public init(coin: String) { self.coin = coin }
}

/// One event of a coin's tax year as the accountant's CSV shows it.
public struct TaxLine: Equatable, Sendable {
    public var id: String
    public var at: Int64
    public var kind: TaxEvent.Kind
    public var quantity: Decimal
    /// Paid, received, or the stated value of a transfer in.
    public var krw: Decimal
    public var fee: Decimal
    /// A disposal's cost under the year's method (nil for the other kinds).
    public var cost: Decimal?

    /// A disposal's proceeds less its fee and cost.
    public var gain: Decimal? { cost.map { krw - fee - $0 } }
}

public enum TaxYearError: Error, Equatable, Sendable {
    /// Before 2027 nothing is taxed.
    case notTaxed(year: Int)
    /// More of a coin sold than the holder had then, every exchange together.
    case moreThanHeld(id: String, coin: String)
    /// A quantity not positive, or a value or fee negative.
    case invalid(id: String)
}

/// The tax year's arithmetic over a resident's events (docs/tax.md, tax-kr.md §7).
public enum TaxYear {
    /// Every coin's `year` (2027 or later) under `method`. `deemedPrice` is the KRW price of a
    /// coin at 2027-01-01 00:00 (nil: none known — the actual cost stands).
    public static func coins(
        _ events: [TaxEvent],
        year: Int,
        method: TaxMethod = .default,
        noCost: NoCostRule = .zero,
        deemedPrice: (String) -> Decimal?
    ) throws(TaxYearError) -> [CoinTaxYear] {
        guard year >= TaxRules.firstYear else { throw .notTaxed(year: year) }
        var byCoin: [String: [TaxEvent]] = [:]
        let end = TaxRules.yearStart(year + 1)
        for event in events where event.at < end {
            guard event.quantity > 0, event.krw >= 0, event.fee >= 0, !event.quantity.isNaN, !event.krw.isNaN, !event.fee.isNaN else {
                throw .invalid(id: event.id)
            }
            byCoin[event.coin, default: []].append(event)
        }
        var rows: [CoinTaxYear] = []
        for (coin, list) in byCoin {
            let sorted = list.sorted { ($0.at, $0.id, $0.kind.rawValue) < ($1.at, $1.id, $1.kind.rawValue) }
            var walk = CoinWalk(coin: coin, pool: CostPool(method: method, rule: noCost), events: sorted)
            walk.untaxed(until: TaxRules.deemedInstant)
            var row = try walk.taxed(year: TaxRules.firstYear, deemedPrice: deemedPrice(coin))
            if year > TaxRules.firstYear {
                for next in (TaxRules.firstYear + 1)...year { row = try walk.taxed(year: next, deemedPrice: nil) }
            }
            if row.openingQuantity > 0 || row.boughtQuantity > 0 || row.soldQuantity > 0 || row.fees > 0 { rows.append(row) }
        }
        return rows.sorted { $0.coin < $1.coin }
    }
}

/// One coin's events walked in time order through its pool.
private struct CoinWalk {
    let coin: String
    var pool: CostPool
    let events: [TaxEvent]
    var next = 0

    init(coin: String, pool: CostPool, events: [TaxEvent]) {
        self.coin = coin
        self.pool = pool
        self.events = events
    }

    /// Before 2027 nothing is taxed: the pool only learns what the holdings cost (the average
    /// methods by the moving average — the 평균매수가 an exchange shows — FIFO by its lots).
    mutating func untaxed(until instant: Int64) {
        var ignored = CoinTaxYear(coin: coin)
        while next < events.count, events[next].at < instant {
            // A sale of more than was held before the tax began only empties the pool.
            let event = events[next]
            if event.kind == .dispose, event.quantity > pool.quantity {
                next += 1
                if pool.quantity > 0 { _ = pool.take(pool.quantity, proceeds: event.krw) }
                continue
            }
            try? apply(event, into: &ignored)
            next += 1
        }
    }

    /// One taxed year from the pool as it stands.
    mutating func taxed(year: Int, deemedPrice: Decimal?) throws(TaxYearError) -> CoinTaxYear {
        var row = CoinTaxYear(coin: coin)
        row.openingQuantity = pool.quantity
        row.openingActualCost = pool.cost
        if year == TaxRules.firstYear {
            row.opening = .actual
            if let deemedPrice, pool.quantity > 0 {
                row.openingDeemedCost = deemedPrice * pool.quantity
                _ = pool.raise(toDeemed: deemedPrice)
                if pool.cost > row.openingActualCost { row.opening = .deemed }
            }
        }
        row.openingCost = pool.cost
        row.uncostedQuantity = pool.uncosted
        let end = TaxRules.yearStart(year + 1)
        if pool.method == .totalAverage {
            try totalAverage(until: end, into: &row)
        } else {
            while next < events.count, events[next].at < end {
                try apply(events[next], into: &row)
                next += 1
            }
            let averaged = pool.averagedQuantity
            row.averageCost = averaged > 0 ? pool.cost / averaged : 0
        }
        row.closingQuantity = pool.quantity
        row.closingCost = pool.cost
        return row
    }

    /// 총평균법: the year's purchases all join the opening pool before any sale is costed; each
    /// sale then takes the one average of the year.
    private mutating func totalAverage(until end: Int64, into row: inout CoinTaxYear) throws(TaxYearError) {
        var sales: [(quantity: Decimal, proceeds: Decimal)] = []
        var held = pool.quantity
        while next < events.count, events[next].at < end {
            let event = events[next]
            switch event.kind {
            case .dispose:
                guard event.quantity <= held else { throw .moreThanHeld(id: event.id, coin: coin) }
                held -= event.quantity
                sales.append((event.quantity, event.krw))
                row.lines.append(TaxLine(event, cost: nil))
                row.soldQuantity += event.quantity
                row.proceeds += event.krw
                row.fees += event.fee
                pool.outside = max(0, min(pool.outside, held))
            case .acquire, .transferIn, .transferOut:
                let before = pool.quantity
                try apply(event, into: &row)
                held += pool.quantity - before
            }
            next += 1
        }
        let averaged = pool.averagedQuantity
        let average = averaged > 0 ? pool.cost / averaged : 0
        row.averageCost = average
        row.uncostedQuantity = max(row.uncostedQuantity, pool.uncosted)
        let uncostedFraction = pool.quantity > 0 ? pool.uncosted / pool.quantity : 0
        var saleLines = row.lines.indices.filter { row.lines[$0].kind == .dispose && row.lines[$0].cost == nil }[...]
        for sale in sales {
            let cost = pool.take(sale.quantity, costedAverage: average, uncostedShare: sale.quantity * uncostedFraction, proceeds: sale.proceeds)
            row.costOfSold += cost
            if let line = saleLines.popFirst() { row.lines[line].cost = cost }
        }
    }

    /// One event into the pool (a total-average year's sales are costed at its end instead).
    private mutating func apply(_ event: TaxEvent, into row: inout CoinTaxYear) throws(TaxYearError) {
        let cost = try costing(event, into: &row)
        row.lines.append(TaxLine(event, cost: cost))
    }

    /// The event's effect on the pool and the row; a disposal's cost.
    private mutating func costing(_ event: TaxEvent, into row: inout CoinTaxYear) throws(TaxYearError) -> Decimal? {
        switch event.kind {
        case .acquire:
            pool.add(quantity: event.quantity, cost: event.krw + event.fee, costed: true)
            row.boughtQuantity += event.quantity
            row.boughtCost += event.krw + event.fee
        case .transferIn:
            // Units coming back from the holder's own wallet keep their cost; the rest are new,
            // at their stated cost — or none.
            let back = min(pool.outside, event.quantity)
            pool.outside -= back
            let new = event.quantity - back
            row.fees += event.fee
            guard new > 0 else { return nil }
            let cost = event.krw * new / event.quantity
            pool.add(quantity: new, cost: cost, costed: cost > 0)
            row.boughtQuantity += new
            row.boughtCost += cost
            if cost == 0 { row.uncostedQuantity += new }
        case .transferOut:
            guard event.quantity <= pool.quantity else { throw .moreThanHeld(id: event.id, coin: coin) }
            pool.outside = min(pool.quantity, pool.outside + event.quantity)
            row.fees += event.fee
        case .dispose:
            guard event.quantity <= pool.quantity else { throw .moreThanHeld(id: event.id, coin: coin) }
            pool.outside = max(0, min(pool.outside, pool.quantity - event.quantity))
            row.soldQuantity += event.quantity
            row.proceeds += event.krw
            row.fees += event.fee
            let cost = pool.take(event.quantity, proceeds: event.krw)
            row.costOfSold += cost
            return cost
        }
        return nil
    }
}

extension TaxLine {
    init(_ event: TaxEvent, cost: Decimal?) {
        self.init(id: event.id, at: event.at, kind: event.kind, quantity: event.quantity, krw: event.krw, fee: event.fee, cost: cost)
    }
}
