import Foundation
import SiseCore
import SiseFeeds
import Synchronization

/// The newest view a browser asked for, waiting to be applied: a later one replaces an earlier
/// one that was not applied yet.
final class ViewInbox: Sendable {
    private let latest = Mutex<(ViewParameters, Language)?>(nil)
    private let bell = Wakeup()

    func post(_ view: (ViewParameters, Language)) {
        latest.withLock { $0 = view }
        bell.signal()
    }

    /// The next view to apply; nil once the task is cancelled.
    func next() async -> (ViewParameters, Language)? {
        while !Task.isCancelled {
            if let view = latest.withLock({ value in defer { value = nil }; return value }) { return view }
            await bell.wait()
        }
        return nil
    }
}

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
