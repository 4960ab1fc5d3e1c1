import Foundation
import Logging
import SiseCore
import SiseStore

/// Tells owners of the changes the history recorded (변동 알림): each event to the owners whose
/// topics want it (`ChangeAlertStore.audience`), kept once in each one's alert history and
/// handed to `deliver` — the page, Web Push, chats and webhooks, as every alert. Only the replica
/// that recorded an event tells it, so it is told once.
public struct ChangeTeller: Sendable {
    private let store: ChangeAlertStore
    private let logger: Logger
    private let deliver: @Sendable (AlertFiring) async -> Void

    public init(store: ChangeAlertStore, logger: Logger, deliver: @escaping @Sendable (AlertFiring) async -> Void) {
        self.store = store
        self.logger = logger
        self.deliver = deliver
    }

    /// The firings told.
    @discardableResult
    public func tell(_ events: [MarketEvent]) async -> [AlertFiring] {
        var told: [AlertFiring] = []
        for event in events {
            do {
                for owner in try await store.audience(event) {
                    let firing = AlertFiring(event: event, owner: owner)
                    guard try await store.record(firing) else { continue }
                    await deliver(firing)
                    told.append(firing)
                }
            } catch {
                logger.warning("a change alert was not told", metadata: ["error": "\(error)"])
            }
        }
        return told
    }
}
