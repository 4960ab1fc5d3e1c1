import Foundation

/// A resident's holding of one coin across every exchange, with what it cost: one aggregate for
/// the average methods, lots oldest first for FIFO. Units without a known cost are counted apart
/// (`uncosted`): under `NoCostRule.zero` they are in the average at cost 0, under `.halfOfProceeds`
/// they stay out of it and cost half of what their sale brings.
struct CostPool {
    struct Lot {
        var quantity: Decimal
        var cost: Decimal
        var costed: Bool
    }

    let method: TaxMethod
    let rule: NoCostRule
    /// Every unit held, those in the holder's own wallets included.
    private(set) var quantity: Decimal = 0
    /// What the costed units cost (under `.zero`: every unit, the uncosted at 0).
    private(set) var cost: Decimal = 0
    /// Units among `quantity` that came without a cost.
    private(set) var uncosted: Decimal = 0
    /// Units withdrawn to the holder's own wallets and not yet back.
    var outside: Decimal = 0
    private var lots: [Lot] = []
    private var head = 0

    init(method: TaxMethod, rule: NoCostRule) {
        self.method = method
        self.rule = rule
    }

    /// The units the average is taken over: all of them, or under `.halfOfProceeds` the costed.
    var averagedQuantity: Decimal { rule == .zero ? quantity : quantity - uncosted }

    mutating func add(quantity q: Decimal, cost c: Decimal, costed: Bool) {
        quantity += q
        cost += c
        if !costed { uncosted += q }
        if method == .fifo { lots.append(Lot(quantity: q, cost: c, costed: costed)) }
    }

    /// Takes `q` units out (a sale bringing `proceeds`), returning what they cost. The average
    /// methods take the pool's average now (the moving average: total-average years call
    /// `take(_:costedAverage:uncostedShare:proceeds:)` with the year's); FIFO the oldest lots.
    mutating func take(_ q: Decimal, proceeds: Decimal) -> Decimal {
        guard method == .fifo else {
            let share = quantity > 0 ? q * uncosted / quantity : 0
            let averaged = averagedQuantity
            return take(q, costedAverage: averaged > 0 ? cost / averaged : 0, uncostedShare: share, proceeds: proceeds)
        }
        var left = q
        var taken: Decimal = 0
        var uncostedTaken: Decimal = 0
        while left > 0, head < lots.count {
            var lot = lots[head]
            let part = min(left, lot.quantity)
            let partCost = part == lot.quantity ? lot.cost : lot.cost * part / lot.quantity
            if lot.costed || rule == .zero {
                taken += partCost
            } else {
                taken += proceeds * part / q / 2
            }
            if !lot.costed { uncostedTaken += part }
            lot.quantity -= part
            lot.cost -= partCost
            left -= part
            if lot.quantity > 0 { lots[head] = lot } else { head += 1 }
            cost -= partCost
        }
        quantity -= q
        uncosted -= uncostedTaken
        if quantity <= 0 { (quantity, cost, uncosted) = (0, 0, 0) }
        compact()
        return taken
    }

    /// An average method's sale at a given average of the costed units; `uncostedShare` of the
    /// `q` units are uncosted ones (under `.zero` they are inside the average already).
    mutating func take(_ q: Decimal, costedAverage average: Decimal, uncostedShare share: Decimal, proceeds: Decimal) -> Decimal {
        let leaving: Decimal
        let taken: Decimal
        if rule == .zero {
            leaving = q == quantity ? cost : average * q
            taken = leaving
        } else {
            let costedPart = q - share
            leaving = costedPart == quantity - uncosted ? cost : average * costedPart
            taken = leaving + (q > 0 ? proceeds * share / q / 2 : 0)
        }
        quantity -= q
        cost -= leaving
        uncosted = max(0, uncosted - share)
        if quantity <= 0 { (quantity, cost, uncosted) = (0, 0, 0) }
        return taken
    }

    /// At 2027-01-01 00:00: what is held costs at least the deemed price (의제취득가액, max of the
    /// market price then and the actual cost) — for the pool as a whole, or lot by lot under FIFO.
    /// Returns the actual cost it replaced.
    mutating func raise(toDeemed price: Decimal) -> Decimal {
        let actual = cost
        guard method == .fifo else {
            let deemed = price * quantity
            if deemed > cost {
                cost = deemed
                uncosted = 0
            }
            return actual
        }
        var total: Decimal = 0
        var stillUncosted: Decimal = 0
        for index in head..<lots.count {
            let deemed = price * lots[index].quantity
            if deemed > lots[index].cost || (!lots[index].costed && price > 0) {
                lots[index].cost = max(deemed, lots[index].cost)
                lots[index].costed = true
            }
            total += lots[index].cost
            if !lots[index].costed { stillUncosted += lots[index].quantity }
        }
        cost = total
        uncosted = stillUncosted
        return actual
    }

    private mutating func compact() {
        if head > 1024, head * 2 > lots.count {
            lots.removeFirst(head)
            head = 0
        }
    }
}
