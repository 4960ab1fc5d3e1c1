import Foundation
import SiseCore

extension ExchangeBoards {
    /// `transactions` valued at the boards' prices now; a price is live only while its board
    /// is. Looking wakes the boards it needs (an idle board's prices are old).
    public func portfolio(_ transactions: [PortfolioTransaction]) throws(PortfolioLedger.Problem) -> PortfolioReport {
        let positions = try PortfolioLedger.positions(transactions)
        var snapshots: [Exchange: BoardSnapshot] = [:]
        for exchange in Set(positions.filter { $0.quantity > 0 }.map(\.exchange)) {
            guard let board = self[exchange] else { continue }
            board.touch()
            snapshots[exchange] = board.snapshot
        }
        return PortfolioReport(positions: positions) { exchange, market in
            guard let snapshot = snapshots[exchange], let row = snapshot.rows[market] else { return nil }
            return PortfolioReport.Quote(price: row.ticker.price, live: snapshot.status.state == .live, market: row.market)
        }
    }
}
