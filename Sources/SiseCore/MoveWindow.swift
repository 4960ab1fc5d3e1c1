import Foundation

/// The lowest and highest price of the last `span` ms (monotonic queues: amortised O(1) a tick),
/// and the move they make: up from the low or down from the high, in percent, whichever is more.
struct MoveWindow: Sendable {
    let span: Int64
    private var lows: [(at: Int64, price: Double)] = []
    private var highs: [(at: Int64, price: Double)] = []
    private var lowStart = 0, highStart = 0

    init(span: Int64) {
        self.span = span
    }

    mutating func add(_ price: Double, at: Int64) -> Double {
        Self.push((at, price), into: &lows, start: &lowStart) { $0 >= price }
        Self.push((at, price), into: &highs, start: &highStart) { $0 <= price }
        let cutoff = at - span
        while lowStart < lows.count - 1, lows[lowStart].at < cutoff { lowStart += 1 }
        while highStart < highs.count - 1, highs[highStart].at < cutoff { highStart += 1 }
        let low = lows[lowStart].price
        let high = highs[highStart].price
        let up = low > 0 ? (price - low) / low * 100 : 0
        let down = high > 0 ? (high - price) / high * 100 : 0
        return max(up, down)
    }

    /// Appends, dropping the entries the new one dominates; compacts the consumed head now and then.
    private static func push(
        _ entry: (at: Int64, price: Double),
        into list: inout [(at: Int64, price: Double)],
        start: inout Int,
        dominated: (Double) -> Bool
    ) {
        while list.count > start, let last = list.last, dominated(last.price) { list.removeLast() }
        list.append(entry)
        if start > 1_024, start * 2 > list.count {
            list.removeFirst(start)
            start = 0
        }
    }
}
