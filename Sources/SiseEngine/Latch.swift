import Foundation
import SiseFeeds

/// A gate that opens once and stays open: waiters wait until it opens or their time is up.
/// The board opens it when its first data lands, so a request that arrives a moment earlier
/// waits for real rows instead of being answered with an empty board.
public final class Latch: Sendable {
    private let gate = SignalGate(consumes: false)

    public init() {}

    public var isOpen: Bool { gate.isSet }

    public func open() { gate.set() }

    /// True once open; false when `timeout` passed (or the task was cancelled) first.
    public func wait(upTo timeout: Duration) async -> Bool {
        if isOpen { return true }
        try? await gate.wait(upTo: timeout)
        return isOpen
    }
}
