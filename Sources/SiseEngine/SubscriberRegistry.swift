import Foundation
import Synchronization

/// The board's subscribers, reachable without awaiting the engine.
final class SubscriberRegistry: Sendable {
    private let mailboxes = Mutex<[UInt64: BoardMailbox]>([:])
    private let counter = Atomic<UInt64>(0)

    func add(_ mailbox: BoardMailbox) -> UInt64 {
        let id = counter.add(1, ordering: .relaxed).newValue
        mailboxes.withLock { $0[id] = mailbox }
        return id
    }

    func remove(_ id: UInt64) {
        if let mailbox = mailboxes.withLock({ $0.removeValue(forKey: id) }) { mailbox.finish() }
    }

    var all: [BoardMailbox] { mailboxes.withLock { Array($0.values) } }
    var count: Int { mailboxes.withLock { $0.count } }
}
