/// Messages per second of one connection, on a sliding one-second window.
struct MessageRate {
    let perSecond: Int
    private var arrivals: [ContinuousClock.Instant] = []

    init(perSecond: Int) {
        self.perSecond = perSecond
    }

    mutating func admit(at now: ContinuousClock.Instant) -> Bool {
        arrivals.removeAll { $0.duration(to: now) >= .seconds(1) }
        guard arrivals.count < perSecond else { return false }
        arrivals.append(now)
        return true
    }
}
