/// Data redraws the screen at most every `interval` (the board publishes every 100 ms; drawing
/// between its batches shows nothing new); a key is drawn at once. A frame held back is drawn
/// when the interval is up, not at whatever event comes next. Pure: times are epoch ms.
struct FramePacer: Sendable {
    enum Decision: Equatable {
        case draw
        /// Not yet: ask for a wake-up this many ms from now.
        case wake(in: Int64)
        /// Not yet, and a wake-up is already on its way.
        case hold
    }

    static let interval: Int64 = 100
    private var lastDrawn: Int64?
    private var wakeAsked = false

    mutating func decide(urgent: Bool, now: Int64) -> Decision {
        guard !urgent, let lastDrawn, (lastDrawn...lastDrawn + Self.interval - 1).contains(now) else { return .draw }
        guard !wakeAsked else { return .hold }
        wakeAsked = true
        return .wake(in: lastDrawn + Self.interval - now)
    }

    /// The wake-up asked for arrived.
    mutating func woke() { wakeAsked = false }

    mutating func drawn(at now: Int64) { lastDrawn = now }
}
