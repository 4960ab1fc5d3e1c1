import Synchronization

/// A view's patch as every page of the view was given it: the message, encoded once, and what it
/// holds (to merge it with the ones after it).
struct SharedPatch: Sendable {
    let message: PageMessage
    let rows: [(String, String)]
    let order: BoardSocketMessage.Order?
    /// When the hub published it (epoch ms).
    let at: Int64

    /// Patches a page holds unmerged behind the one it waits to send; one more, and they become
    /// one shared patch (`collapsed`), so a page far behind stays on merges its view's pages share.
    static let maxLater = 8

    /// `first` and `later` — one view's consecutive patches, oldest first — as one message: rows by
    /// market, the newest winning, and the newest order. Pages of a view that fall behind fall
    /// behind together (a batch for 10,000 pages outlasts the 100 ms between two) and missed the
    /// same patches: the first page to need the merge makes it, and the others find it on the
    /// newest patch's message.
    static func combined(_ first: SharedPatch, _ later: [SharedPatch]) -> PageMessage {
        collapsed(first, later).message
    }

    /// `first` and `later` as one shared patch, made once for the pages that missed the same ones
    /// (kept on the newest patch's message), as old as `first`.
    static func collapsed(_ first: SharedPatch, _ later: [SharedPatch]) -> SharedPatch {
        guard let last = later.last else { return first }
        return last.message.merged(since: first.message, count: later.count) {
            var byMarket: [String: String] = [:]
            var order: BoardSocketMessage.Order?
            fold([first] + later, into: &byMarket, order: &order)
            let rows = byMarket.map { ($0.key, $0.value) }
            let message = PageMessage(BoardSocketMessage.patch(rows: rows.map(\.1), order: order, at: first.at))
            return SharedPatch(message: message, rows: rows, order: order, at: first.at)
        }
    }

    /// `patches`, oldest first, laid over `rows` (by market, the newest winning) and `order`.
    static func fold(_ patches: [SharedPatch], into rows: inout [String: String], order: inout BoardSocketMessage.Order?) {
        for patch in patches {
            for (code, fragment) in patch.rows { rows[code] = fragment }
            if let newer = patch.order { order = newer }
        }
    }
}

extension BoardClient.State {
    /// The shared patches waiting, merged into the page's own rows and order (the page is about
    /// to be sent something of its own).
    mutating func absorbShared() {
        guard let first = shared else { return }
        SharedPatch.fold([first] + later, into: &rows, order: &order)
        since = min(since ?? first.at, first.at)
        shared = nil
        later = []
    }

    /// Rows waiting to be sent (merged or not).
    var backlog: Int { rows.count + (shared?.rows.count ?? 0) + later.reduce(0) { $0 + $1.rows.count } }
}

/// The merges made of a patch and the ones before it, kept on the newest patch's message (and
/// gone with it): by the first patch merged and how many followed it. Pages far behind at
/// different depths make a merge each, so they are found by key, not by a walk through them all.
final class PatchMerges: Sendable {
    private struct Key: Hashable {
        let first: ObjectIdentifier
        let count: Int
    }

    /// The first patch is kept with its merge: its identity names no other message while held.
    private let made = Mutex<[Key: (first: PageMessage, merged: SharedPatch)]>([:])

    func lookUp(since first: PageMessage, count: Int, make: () -> SharedPatch) -> SharedPatch {
        made.withLock { made in
            let key = Key(first: ObjectIdentifier(first), count: count)
            if let known = made[key] { return known.merged }
            let merged = make()
            made[key] = (first, merged)
            return merged
        }
    }
}
