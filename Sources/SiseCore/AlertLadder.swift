import Foundation

/// Thresholds of one direction on one market, kept so a tick costs O(1) when nothing fires and
/// O(k) when k alerts fire, plus O(log n) per insertion:
///
/// - `armed` holds alerts whose condition did not hold at the last evaluation, sorted so the
///   one that triggers first is last — a tick pops from the end while the last one holds.
/// - A fired alert is `disarmed` until the value goes back past its re-arm level (the threshold
///   moved away by the hysteresis band), sorted the same way: a price hovering at the line
///   fires once, not at every wiggle.
struct AlertLadder: Sendable {
    /// Fires when the value is at or above the level (`true`) or at or below it.
    let rising: Bool
    private(set) var armed: [(level: Double, id: String)] = []
    private(set) var disarmed: [(level: Double, id: String)] = []
    /// The level of each alert (to re-arm it).
    private var levels: [String: Double] = [:]

    init(rising: Bool) {
        self.rising = rising
    }

    var isEmpty: Bool { levels.isEmpty }

    /// A new alert counts as "did not hold": it fires at its first evaluation if it holds then.
    mutating func insert(_ id: String, level: Double) {
        remove(id)
        levels[id] = level
        Self.insert((level, id), into: &armed, descending: rising)
    }

    mutating func remove(_ id: String) {
        guard levels.removeValue(forKey: id) != nil else { return }
        armed.removeAll { $0.id == id }
        disarmed.removeAll { $0.id == id }
    }

    /// The alerts that fire at `value` (moved to disarmed), after re-arming those the value has
    /// gone back past. `band(level)` is how far past the level the value must go to re-arm.
    mutating func step(_ value: Double, band: (Double) -> Double) -> [String] {
        guard value.isFinite else { return [] }
        // Re-arm: above-alerts once the value is below level − band; below-alerts above level + band.
        while let last = disarmed.last, rising ? value < last.level : value > last.level {
            disarmed.removeLast()
            if let level = levels[last.id] { Self.insert((level, last.id), into: &armed, descending: rising) }
        }
        var fired: [String] = []
        while let last = armed.last, rising ? value >= last.level : value <= last.level {
            armed.removeLast()
            fired.append(last.id)
            let rearm = rising ? last.level - band(last.level) : last.level + band(last.level)
            Self.insert((rearm, last.id), into: &disarmed, descending: !rising)
        }
        return fired
    }

    /// Sorted insertion: descending levels (the lowest last) or ascending (the highest last).
    private static func insert(_ entry: (level: Double, id: String), into list: inout [(level: Double, id: String)], descending: Bool) {
        var low = 0
        var high = list.count
        while low < high {
            let mid = (low + high) / 2
            let before = descending ? list[mid].level > entry.level : list[mid].level < entry.level
            if before { low = mid + 1 } else { high = mid }
        }
        list.insert(entry, at: low)
    }
}
