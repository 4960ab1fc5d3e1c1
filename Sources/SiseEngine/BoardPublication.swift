import Foundation
import SiseCore
import SiseFeeds
import Synchronization

/// What a board shows its faces: the board as of the last flush, the subscribers that follow
/// its changes, and whether it has had data at all. The snapshot is kept up to date by the rows
/// that changed rather than rebuilt from the engine's rows: a snapshot sharing their storage made
/// the next tick copy all of it, ten times a second.
final class BoardPublication: Sendable {
    private let published: Mutex<BoardSnapshot>
    private let subscribers = SubscriberRegistry()
    /// Opens when the first board (markets and tickers) is published.
    private let loaded = Latch()

    init(status: ConnectivityStatus) {
        published = Mutex(BoardSnapshot(rows: [:], receivedAt: [:], status: status))
    }

    /// The latest published board; cheap, never waits for the engine.
    var snapshot: BoardSnapshot { published.withLock { $0 } }

    /// A snapshot now, then coalesced changes; ends when the consumer stops iterating.
    func updates() -> BoardUpdates {
        let mailbox = BoardMailbox()
        // Registered under the snapshot's lock, so no flush falls between the two.
        let (id, first) = published.withLock { snapshot in (subscribers.add(mailbox), snapshot) }
        return BoardUpdates(first: first, mailbox: mailbox, onEnd: { [subscribers] in subscribers.remove(id) })
    }

    var subscriberCount: Int { subscribers.count }

    var hasData: Bool { loaded.isOpen }

    func waitForData(upTo timeout: Duration) async -> Bool {
        await loaded.wait(upTo: timeout)
    }

    /// One flush: the rows that changed, those confirmed fresh with the same figures (published
    /// quietly: their arrival times move, which is what stale marks read), their arrival times,
    /// the rows gone and the status. Subscribers hear of it only when there is `news`
    /// (`newStatus` when the status moved); the first news of a `bootstrapped` board opens
    /// `hasData`.
    func publish(
        changed: [MarketRow],
        confirmed: [MarketRow],
        arrivals: [MarketID: Int64],
        gone: [MarketID],
        status: ConnectivityStatus,
        newStatus: ConnectivityStatus?,
        news: Bool,
        bootstrapped: Bool
    ) {
        published.withLock { board in
            for id in gone {
                board.rows[id] = nil
                board.receivedAt[id] = nil
            }
            for row in changed { board.rows[row.id] = row }
            for row in confirmed { board.rows[row.id] = row }
            for (id, at) in arrivals { board.receivedAt[id] = at }
            board.status = status
        }
        guard news else { return }
        if bootstrapped && !loaded.isOpen { loaded.open() }
        for mailbox in subscribers.all {
            mailbox.post(rows: changed, removed: gone, status: newStatus)
        }
    }
}
