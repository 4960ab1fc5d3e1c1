/// The snapshots of views made since the last publication, each made and framed once: a crowd of
/// pages opening the same view (everyone reconnecting after a restart: thousands in seconds) costs
/// one snapshot, not one a page — and not one a page made under the publishing lock, where every
/// page's snapshot held the board's next batch back.
///
/// What a snapshot holds (the board's rows, the view's order, the premium's inputs, the status)
/// changes only by a publication — under the hub's publishing lock, which also clears these — or
/// with the clock (the status's ages): an entry serves for at most `maxAge`. Kept inside the
/// publishing lock, so a snapshot made before a batch is never handed out after it.
struct ViewSnapshots {
    /// How long (ms of the hub's wall clock) a snapshot serves when no publication came.
    static let maxAge: Int64 = 1_000

    private var made: [BoardClientView: (at: Int64, message: PageMessage)] = [:]

    /// The view's snapshot: the one made at most `maxAge` before `now` since the last
    /// publication, else `make()`'s, kept for the next page of the view.
    mutating func message(for view: BoardClientView, now: Int64, make: () -> PageMessage) -> PageMessage {
        if let kept = made[view], now - kept.at >= 0, now - kept.at < Self.maxAge { return kept.message }
        let message = make()
        made[view] = (now, message)
        return message
    }

    /// A publication: every snapshot made so far is out of date.
    mutating func clear() {
        guard !made.isEmpty else { return }
        made.removeAll(keepingCapacity: true)
    }
}
