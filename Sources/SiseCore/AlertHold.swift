import Foundation

/// A line that must hold for a while before it fires ("premium at or above 3 % for 10 minutes"):
/// every reading over `span` must be on the firing side, with no gap between two readings longer
/// than `maxGap` (a silence cannot vouch for the value). It fires once the first reading on that
/// side is `span` old and the newest still is; then it waits until the value has gone back past
/// the line by `band` before it can fire again — as an `AlertLadder` line does.
struct AlertHold: Sendable, Equatable {
    /// The longest two readings of one hold may be apart (ms).
    static let maxGap: Int64 = 60_000

    let level: Double
    /// Fires at or above the level (`true`) or at or below it.
    let rising: Bool
    /// How long the line must hold (ms).
    let span: Int64
    let band: Double
    private(set) var armed = true
    /// The first reading of the current hold.
    private(set) var since: Int64?
    private(set) var lastReading: Int64?

    init(level: Double, rising: Bool, span: Int64, band: Double) {
        self.level = level
        self.rising = rising
        self.span = span
        self.band = band
    }

    /// A reading of `value` at `at` (epoch ms): whether the line fires now.
    mutating func step(_ value: Double, at time: Int64) -> Bool {
        guard value.isFinite else { return false }
        // Readings from two paths (ticks, the engine's sweep) may come a little out of order.
        let at = max(time, lastReading ?? time)
        defer { lastReading = at }
        let holds = rising ? value >= level : value <= level
        guard armed else {
            if rising ? value < level - band : value > level + band { armed = true }
            return false
        }
        guard holds else {
            since = nil
            return false
        }
        // A new hold starts at the first reading on the firing side, or after a silence.
        if since == nil || lastReading.map({ at - $0 > Self.maxGap }) ?? true { since = at }
        guard let start = since, at - start >= span else { return false }
        armed = false
        since = nil
        return true
    }
}
