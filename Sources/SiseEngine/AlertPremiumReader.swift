import Foundation
import SiseCore

/// The premium a premium rule reads, as the faces show it: against Binance, the board's 김프
/// column (and KRW-USDT's 테더 김프); against another venue, the premium matrix's cell — both legs
/// fresh and close, not a doubt — so an alert never fires on a figure the matrix would not show.
struct AlertPremiumReader: Sendable {
    let boards: ExchangeBoards
    let global: GlobalPrices?

    /// The premium (percent) of `row` on `exchange` against `venue` at `now`; nil when there is none to trust.
    func percent(_ row: MarketRow, on exchange: Exchange, against venue: GlobalVenue, inputs: PremiumInputs?, now: Int64) -> Double? {
        if venue == .binance || row.id.base == "USDT" { return inputs?.premium(row).map { $0 * 100 } }
        guard let global, let inputs else { return nil }
        let symbol = row.id.base
        var korean: [Exchange: [String: PremiumMatrix.Leg]] = [:]
        for (other, board) in boards.all {
            let snapshot = board.snapshot
            guard let leg = snapshot.rows[row.id], let at = snapshot.confirmedAt(row.id) else { continue }
            korean[other] = [symbol: PremiumMatrix.Leg(price: leg.ticker.price, at: at)]
        }
        let quotes = global.quotes(for: symbol).mapValues { [symbol: $0] }
        let rows = PremiumMatrix.rows(korean: korean, venues: quotes, fx: inputs.fx, now: now)
        return rows.first?.cell(exchange, venue).premium.map { $0 * 100 }
    }

    /// Keeps the venues' pollers awake while rules read them.
    func touch(_ venues: some Sequence<GlobalVenue>) {
        if venues.contains(where: { $0 != .binance }) { global?.touch() }
    }
}
