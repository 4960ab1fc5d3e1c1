import Foundation

/// One view's rows in display order, kept between batches and brought up to date by the rows
/// that changed.
///
/// Filtering and sorting every row of a board for each batch (ten a second) is most of what a
/// viewer of a live board costs, while a batch changes a few rows and seldom the order. A
/// changed row that still sits between its neighbours is replaced where it is; when one no
/// longer does, the changed rows are taken out and put back by binary search (the others keep
/// their places relative to each other: their keys did not change). Whatever this cannot vouch
/// for is filtered and sorted again exactly as `BoardQuery.apply` does: the first update, a
/// premium sort (its inputs age with the clock), a row entering or leaving the view, a board
/// whose number of rows changed, or a batch touching a quarter of the view or more.
public struct ViewOrder: Sendable {
    public let query: BoardQuery
    /// The rows shown, in order.
    public private(set) var rows: [MarketRow] = []
    /// Their codes, in the same order (what a page receives as the order).
    public private(set) var codes: [String] = []
    /// Rows the last update took at newer values than the view held, though they were not among
    /// those it was told had changed (a full sort reads the whole board, which can be ahead of
    /// the batches told so far). Their pages must be sent them with the order placing them.
    public private(set) var refreshed: Set<MarketID> = []
    private var position: [MarketID: Int] = [:]
    private var boardCount: Int?
    private let search: MarketSearch
    /// Full filter-and-sort passes so far (the tests check the incremental path is taken).
    private(set) var rebuilds = 0

    public init(query: BoardQuery) {
        self.query = query
        search = MarketSearch(query.search)
    }

    /// The row shown for `id`, if the view shows it.
    public func row(_ id: MarketID) -> MarketRow? {
        position[id].map { rows[$0] }
    }

    /// The rows among `ids` that the view shows, in display order.
    public func rows(among ids: some Sequence<MarketID>) -> [MarketRow] {
        ids.compactMap { position[$0] }.sorted().map { rows[$0] }
    }

    /// Brings the view up to date with `board`, where only the `touched` markets changed,
    /// appeared or went since the last update. Returns whether the order changed (always true
    /// the first time).
    @discardableResult
    public mutating func update(
        _ board: [MarketID: MarketRow],
        touched: some Collection<MarketID>,
        premium: PremiumInputs = .none
    ) -> Bool {
        refreshed = []
        let ordering = MarketOrdering(query.sort, language: query.language, premium: premium)
        guard boardCount == board.count, !ordering.readsPremium, touched.count * 4 < rows.count else {
            return rebuild(board, premium: premium)
        }
        var changed = Set<Int>()
        for id in touched {
            let current = board[id].flatMap { query.includes($0, search) ? $0 : nil }
            switch (position[id], current) {
            case (nil, nil):
                continue
            case (let index?, let row?):
                rows[index] = row
                changed.insert(index)
            default:
                return rebuild(board, premium: premium)  // entered or left the view
            }
        }
        let last = rows.count - 1
        let inPlace = changed.allSatisfy { i in
            (i == 0 || ordering.precedes(rows[i - 1], rows[i])) && (i == last || ordering.precedes(rows[i], rows[i + 1]))
        }
        guard !inPlace else { return false }
        reinsert(changed, ordering)
        return true
    }

    /// The rows at `moving` taken out and put back where `ordering` places them.
    private mutating func reinsert(_ moving: Set<Int>, _ ordering: MarketOrdering) {
        var staying: [MarketRow] = []
        staying.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() where !moving.contains(index) { staying.append(row) }
        let movers = moving.map { rows[$0] }.sorted(by: ordering.precedes)
        var merged: [MarketRow] = []
        merged.reserveCapacity(rows.count)
        var next = 0
        for mover in movers {
            // The first staying row the mover goes above.
            var low = next
            var high = staying.count
            while low < high {
                let middle = (low + high) / 2
                if ordering.precedes(mover, staying[middle]) { high = middle } else { low = middle + 1 }
            }
            merged.append(contentsOf: staying[next..<low])
            merged.append(mover)
            next = low
        }
        merged.append(contentsOf: staying[next...])
        rows = merged
        for (index, row) in rows.enumerated() where codes[index] != row.id.code {
            codes[index] = row.id.code
            position[row.id] = index
        }
    }

    /// Whether a page holding `held` shows `row` already: the same row but for when the
    /// exchange last confirmed it (a board takes confirmations quietly, telling no one).
    static func sameFigures(_ held: MarketRow, _ row: MarketRow) -> Bool {
        var held = held
        held.ticker.timestamp = row.ticker.timestamp
        held.ticker.tradeTimestamp = row.ticker.tradeTimestamp
        return held == row
    }

    private mutating func rebuild(_ board: [MarketID: MarketRow], premium: PremiumInputs) -> Bool {
        let first = boardCount == nil
        rebuilds += 1
        boardCount = board.count
        let before = rows
        let beforePosition = position
        rows = query.apply(board.values, premium: premium)
        if !first {
            refreshed = Set(rows.lazy.filter { row in beforePosition[row.id].map { !Self.sameFigures(before[$0], row) } ?? true }.map(\.id))
        }
        let fresh = rows.map(\.id.code)
        let moved = first || fresh != codes
        codes = fresh
        position = Dictionary(rows.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        return moved
    }
}
