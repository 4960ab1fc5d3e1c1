import Foundation
import Logging
import SiseCore
import SiseStore
import Synchronization

/// The lists wide rules follow (an owner's favorites and holdings): read into the book when a rule
/// needs one, again when they change — told by the server's writes and the other replicas, or
/// every `listRefresh` seconds in the terminal.
extension AlertEngine {
    /// The owner's favorites or holdings changed (here or on another replica): the wide rules that
    /// follow them watch the list as it now stands, and a new member is evaluated at once.
    public func listsChanged(owner: String) async {
        positions.withLock { $0[owner] = nil }
        let keys = book.withLock { $0.followedLists.filter { $0.owner == owner } }
        for key in keys {
            let before = book.withLock { $0.list(key) ?? [] }
            await read(key)
            syncAwake()
            let added = book.withLock { ($0.list(key) ?? []).subtracting(before) }
            guard !added.isEmpty, let board = boards[key.exchange], board.snapshot.status.state == .live else { continue }
            let snapshot = board.snapshot
            await apply(key.exchange, added.sorted().compactMap { snapshot.rows[$0] })
        }
    }

    /// A list read from the store into the book (a list that cannot be read keeps what it had).
    func read(_ key: AlertBook.ListKey) async {
        guard let lists else { return }
        do {
            let markets = try await lists.markets(key)
            book.withLock { $0.setList(key, markets) }
        } catch {
            logger.warning("a wide alert's list could not be read", metadata: ["error": "\(error)"])
        }
    }

    /// Every second, lists some wide rule follows and the book has not read (rules loaded at
    /// start); every `listRefresh` seconds, every followed list again.
    func readLists() async {
        var second = 0
        while !Task.isCancelled {
            second += 1
            if let listRefresh, second % max(1, listRefresh) == 0 {
                let owners = book.withLock { Set($0.followedLists.map(\.owner) + $0.pnlWatches.map(\.owner)) }
                for owner in owners { await listsChanged(owner: owner) }
            }
            for key in book.withLock({ $0.unreadLists }) {
                if Task.isCancelled { return }
                await read(key)
            }
            syncAwake()
            do { try await pace.sleep(for: .seconds(1)) } catch { return }
        }
    }
}
