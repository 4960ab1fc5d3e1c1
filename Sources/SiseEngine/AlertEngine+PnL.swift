import Foundation
import Logging
import SiseCore
import SiseStore
import Synchronization

/// P&L lines, read once a second from each owner's positions at the boards' live prices.
extension AlertEngine {
    /// Every second, each P&L line read from its owner's positions valued at the boards' live
    /// prices (the portfolio's own arithmetic); a holding whose price is not live reads nothing.
    func readPnL() async {
        while !Task.isCancelled {
            let keys = book.withLock { $0.pnlWatches }
            if !keys.isEmpty, let lists {
                let now = clock.now
                var fired: [(AlertBook.Fired, price: Double)] = []
                var exchanges: Set<Exchange> = []
                for (owner, owned) in Dictionary(grouping: keys, by: \.owner) {
                    let held: [Position]?
                    if let cached = positions.withLock({ $0[owner] }) {
                        held = cached
                    } else {
                        held = try? await lists.positions(owner: owner)
                        positions.withLock { $0[owner] = .some(held) }
                    }
                    guard let held else { continue }
                    exchanges.formUnion(held.filter { $0.quantity > 0 }.map(\.exchange))
                    let report = PortfolioReport(positions: held) { exchange, market in
                        guard let snapshot = self.boards[exchange]?.snapshot, let row = snapshot.rows[market] else { return nil }
                        return PortfolioReport.Quote(price: row.ticker.price, live: snapshot.status.state == .live)
                    }
                    for key in owned {
                        guard let reading = Self.reading(report, key) else { continue }
                        let firings = book.withLock { $0.pnl(percent: reading.percent, amount: reading.amount, key, at: now) }
                        fired += firings.map { ($0, reading.price) }
                    }
                }
                pnlExchanges.withLock { $0 = exchanges }
                syncAwake()
                await settle(fired, now: now)
            }
            progress.withLock { $0.pnlReads += 1 }
            do { try await pace.sleep(for: .seconds(1)) } catch { return }
        }
    }

    /// A holding's return (percent), unrealised P&L (KRW) and price — or the whole portfolio's,
    /// with its value — when every price it needs is live.
    static func reading(_ report: PortfolioReport, _ key: AlertBook.PnLKey) -> (percent: Double, amount: Double, price: Double)? {
        if let exchange = key.exchange, let market = key.market {
            guard let row = report.positions.first(where: { $0.exchange == exchange.rawValue && $0.market == market.code }), !row.stale,
                let rate = row.returnRate, let pnl = row.unrealizedPnl.flatMap(Double.init), let price = row.price.flatMap(Double.init)
            else { return nil }
            return (rate * 100, pnl, price)
        }
        let totals = report.totals
        guard !totals.stale, let rate = totals.returnRate, let pnl = Double(totals.unrealizedPnl), let value = Double(totals.value) else {
            return nil
        }
        return (rate * 100, pnl, value)
    }
}
