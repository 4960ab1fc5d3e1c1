import SiseCore

extension ExchangeBoards {
    /// Each board's KRW rows for the cross-exchange board; a board offline or idle is stale
    /// (its prices are shown, marked, and left out of the gap).
    public func compareVenues() -> [Exchange: CompareBoard.Venue] {
        var venues: [Exchange: CompareBoard.Venue] = [:]
        for (exchange, board) in all {
            let snapshot = board.snapshot
            let state = snapshot.status.state
            venues[exchange] = CompareBoard.Venue(rows: Array(snapshot.rows.values), stale: state == .offline || state == .idle)
        }
        return venues
    }
}
