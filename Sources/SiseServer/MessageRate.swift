/// Messages of one connection: up to `perSecond` at once, and `perSecond` a second after that (a
/// token bucket). A page's steady messages reach the server in bunches whenever the network or a
/// busy machine holds them up for a moment; a sliding one-second window counted such a bunch as a
/// faster page, and cut off a steady 18 a second on a loaded machine. A page that keeps sending
/// faster than `perSecond` still runs dry — 30 a second within about two seconds.
struct MessageRate {
    let perSecond: Int
    private var tokens: Double
    private var last: ContinuousClock.Instant?

    init(perSecond: Int) {
        self.perSecond = perSecond
        tokens = Double(perSecond)
    }

    mutating func admit(at now: ContinuousClock.Instant) -> Bool {
        if let last {
            let elapsed = last.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            tokens = min(Double(perSecond), tokens + max(0, seconds) * Double(perSecond))
        }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
