import SiseTestSupport
import Testing

@testable import SiseCore

/// `ViewOrder` keeps a view's order by placing only the rows that changed; whatever happens, it
/// must show exactly what filtering and sorting the whole board shows.
@Suite struct ViewOrderTests {
    static let names = ["비트코인", "이더리움", "엑스알피", "코인", "코인", "Alpha", "alpha", "베타"]
    static let values: [Double] = [0, 1_000, 5_000, 5_000, 90_000, 1e9, 1e9, 3.5e10]

    static func row(_ quote: String, _ base: String, name: String, price: Double, rate: Double, value: Double) -> MarketRow {
        let id = MarketID(quote: quote, base: base)
        return MarketRow(
            market: Market(id: id, koreanName: name, englishName: name.uppercased() == name ? base : name),
            ticker: Ticker(
                market: id,
                price: price,
                change: PriceChange(signed: rate),
                signedChangePrice: price * rate,
                signedChangeRate: rate,
                tradeValue24h: value
            ),
            exchange: .upbit
        )
    }

    static func randomRow(_ id: MarketID, _ g: inout SeededGenerator) -> MarketRow {
        row(
            id.quote,
            id.base,
            name: names.randomElement(using: &g)!,
            price: Double(Int.random(in: 1...40, using: &g)) * 100,
            rate: Double(Int.random(in: -3...3, using: &g)) / 100,
            value: values.randomElement(using: &g)!
        )
    }

    static let queries: [BoardQuery] = {
        var queries: [BoardQuery] = []
        for key in [SortKey.value, .price, .change, .name, .premium] {
            for direction in [SortDirection.descending, .ascending] {
                queries.append(BoardQuery(sort: SortState(key: key, direction: direction)))
            }
        }
        queries.append(BoardQuery())
        queries.append(BoardQuery(quote: .btc, sort: SortState(key: .change, direction: .ascending), language: .en))
        queries.append(BoardQuery(sort: SortState(key: .name, direction: .ascending), search: "코인"))
        queries.append(BoardQuery(favorites: [MarketID(quote: "KRW", base: "C3"), MarketID(quote: "KRW", base: "C7")]))
        return queries
    }()

    @Test(arguments: 0..<4)
    func matchesAFullSortAfterEveryBatch(seed: Int) {
        var g = SeededGenerator(seed: UInt64(seed))
        var board: [MarketID: MarketRow] = [:]
        for k in 0..<120 {
            let id = MarketID(quote: k % 4 == 3 ? "BTC" : "KRW", base: "C\(k)")
            board[id] = Self.randomRow(id, &g)
        }
        var orders = Self.queries.map { ViewOrder(query: $0) }
        var shown = orders.map { _ in [String]() }
        for step in 0..<200 {
            var touched = Set<MarketID>()
            let ids = Array(board.keys).sorted { $0.code < $1.code }
            for _ in 0..<Int.random(in: 0...6, using: &g) {
                let id = ids.randomElement(using: &g)!
                var row = board[id]!
                switch Int.random(in: 0..<10, using: &g) {
                case 0: row = Self.randomRow(id, &g)  // names too
                case 1: row.ticker.price = Double(Int.random(in: 1...40, using: &g)) * 100
                case 2: row.ticker.signedChangeRate = Double(Int.random(in: -3...3, using: &g)) / 100
                default: row.ticker.tradeValue24h += Self.values.randomElement(using: &g)!
                }
                board[id] = row
                touched.insert(id)
            }
            if step % 50 == 25 {
                // A delisting and a listing in the same batch: the board keeps its size.
                let gone = ids.randomElement(using: &g)!
                board[gone] = nil
                let new = MarketID(quote: "KRW", base: "N\(step)")
                board[new] = Self.randomRow(new, &g)
                touched.formUnion([gone, new])
            }
            for q in orders.indices {
                let moved = orders[q].update(board, touched: touched)
                let expected = orders[q].query.apply(board.values)
                let sameRows = orders[q].rows == expected
                let sameCodes = orders[q].codes == expected.map(\.id.code)
                #expect(sameRows && sameCodes, "seed \(seed) step \(step) query \(q): \(orders[q].codes) != \(expected.map(\.id.code))")
                if !sameRows { return }
                #expect(moved == (shown[q] != orders[q].codes || step == 0), "seed \(seed) step \(step) query \(q)")
                #expect(expected.prefix(5).allSatisfy { orders[q].row($0.id) == $0 })
                #expect(orders[q].rows(among: touched).map(\.id) == expected.filter { touched.contains($0.id) }.map(\.id))
                shown[q] = orders[q].codes
            }
        }
        // The point of it: most batches are placed without sorting again.
        let byValue = orders[0]
        #expect(byValue.rebuilds < 30, "rebuilt \(byValue.rebuilds) times in 200 batches")
    }

    /// The board a view reads can be ahead of the batches it was told of (a batch still on its
    /// way). A page holds the rows it was sent; after every update the order it gets must place
    /// exactly the values it holds — a full sort that read newer values names them as `refreshed`.
    @Test(arguments: 0..<4)
    func aPageHoldsTheValuesItsOrderWasMadeFrom(seed: Int) {
        var g = SeededGenerator(seed: UInt64(100 + seed))
        var board: [MarketID: MarketRow] = [:]
        for k in 0..<40 {
            let id = MarketID(quote: "KRW", base: "C\(k)")
            board[id] = Self.randomRow(id, &g)
        }
        for query in Self.queries where query.sort.key != .premium {
            var order = ViewOrder(query: query)
            order.update(board, touched: [])
            var page = Dictionary(order.rows.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var inFlight = Set<MarketID>()
            for step in 0..<150 {
                var changed = Set<MarketID>()
                for _ in 0..<Int.random(in: 1...4, using: &g) {
                    let id = board.keys.sorted { $0.code < $1.code }.randomElement(using: &g)!
                    board[id]?.ticker.signedChangeRate = Double(Int.random(in: -9...9, using: &g)) / 100
                    board[id]?.ticker.tradeValue24h += Self.values.randomElement(using: &g)!
                    changed.insert(id)
                }
                if step % 10 == 5 {  // a full sort: the board's size changes
                    let new = MarketID(quote: "KRW", base: "N\(step)")
                    board[new] = Self.randomRow(new, &g)
                    changed.insert(new)
                }
                // This batch tells of what changed before it; what changed now is told next time.
                let told = inFlight
                inFlight = changed
                order.update(board, touched: told)
                for row in order.rows(among: told.union(order.refreshed)) { page[row.id] = row }
                let unsent = order.rows.filter { page[$0.id] != $0 }.map(\.id.code)
                #expect(unsent.isEmpty, "seed \(seed) step \(step) \(query.sort): the order places values of \(unsent) the page was never sent")
                if !unsent.isEmpty { return }
            }
        }
    }

    /// A board takes an exchange's confirmations (same figures, a later timestamp) quietly: a
    /// full sort that reads them sends nothing for them, while a changed figure is sent.
    @Test func aConfirmationAloneIsNotRefreshed() throws {
        var board: [MarketID: MarketRow] = [:]
        for k in 0..<8 {
            let id = MarketID(quote: "KRW", base: "C\(k)")
            board[id] = Self.row("KRW", "C\(k)", name: "코인", price: Double(100 + k), rate: 0.01, value: Double(k) * 1e9)
        }
        var order = ViewOrder(query: BoardQuery())
        order.update(board, touched: [])
        let quiet = MarketID(quote: "KRW", base: "C1")
        let moved = MarketID(quote: "KRW", base: "C2")
        board[quiet]?.ticker.timestamp = 1_795_000_000_000
        board[moved]?.ticker.price = 1
        let listed = MarketID(quote: "KRW", base: "NEW")
        board[listed] = Self.row("KRW", "NEW", name: "새", price: 5, rate: 0, value: 1)
        order.update(board, touched: [listed])
        #expect(order.refreshed == [moved, listed])
    }

    @Test func aPremiumSortIsAlwaysSortedAgain() {
        var order = ViewOrder(query: BoardQuery(sort: SortState(key: .premium, direction: .descending)))
        let id = MarketID(quote: "KRW", base: "BTC")
        let board = [id: Self.row("KRW", "BTC", name: "비트코인", price: 1, rate: 0, value: 1)]
        order.update(board, touched: [])
        order.update(board, touched: [])
        #expect(order.rebuilds == 2)
    }
}
