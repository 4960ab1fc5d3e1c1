import Foundation
import SiseCore
import Synchronization

/// One subscriber's mailbox: changes accumulate per market (newest wins), so a slow reader
/// costs at most one pending row per market, never an unbounded queue, and never slows the
/// engine. A doorbell with a buffer of one wakes the reader.
final class BoardMailbox: Sendable {
    private struct Pending {
        var rows: [MarketID: MarketRow] = [:]
        var removed: Set<MarketID> = []
        var status: ConnectivityStatus?
    }

    private let pending = Mutex(Pending())
    let doorbell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    init() {
        (doorbell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func post(rows: [MarketRow], removed: [MarketID], status: ConnectivityStatus?) {
        pending.withLock { box in
            for row in rows { box.rows[row.id] = row }
            for id in removed {
                box.removed.insert(id)
                box.rows[id] = nil
            }
            if let status { box.status = status }
        }
        ring.yield()
    }

    func finish() { ring.finish() }

    var backlog: Int { pending.withLock { $0.rows.count + $0.removed.count } }

    /// Everything pending, as updates in a fixed order: status, removals, changes.
    func drain() -> [BoardUpdate] {
        let box = pending.withLock { box in
            let copy = box
            box = Pending()
            return copy
        }
        var updates: [BoardUpdate] = []
        if let status = box.status { updates.append(.status(status)) }
        if !box.removed.isEmpty { updates.append(.removed(box.removed.sorted())) }
        if !box.rows.isEmpty { updates.append(.changes(box.rows.values.sorted { $0.id < $1.id })) }
        return updates
    }
}

/// The updates of a board as an AsyncSequence: a snapshot first, then coalesced batches.
public struct BoardUpdates: AsyncSequence, Sendable {
    public typealias Element = BoardUpdate
    let first: BoardSnapshot
    let mailbox: BoardMailbox
    let onEnd: @Sendable () -> Void

    /// Rows waiting for this subscriber (bounded by the number of markets).
    public var backlog: Int { mailbox.backlog }

    public func makeAsyncIterator() -> Iterator {
        Iterator(queue: [.snapshot(first)], doorbell: mailbox.doorbell.makeAsyncIterator(), mailbox: mailbox, ender: Ender(onEnd))
    }

    public struct Iterator: AsyncIteratorProtocol {
        var queue: [BoardUpdate]
        var doorbell: AsyncStream<Void>.Iterator
        let mailbox: BoardMailbox
        let ender: Ender

        public mutating func next() async -> BoardUpdate? {
            while queue.isEmpty {
                guard await doorbell.next() != nil else { return nil }
                queue = mailbox.drain()
            }
            return queue.removeFirst()
        }
    }

    /// Unsubscribes when the last iterator goes away.
    final class Ender: Sendable {
        let action: @Sendable () -> Void
        init(_ action: @escaping @Sendable () -> Void) { self.action = action }
        deinit { action() }
    }
}
