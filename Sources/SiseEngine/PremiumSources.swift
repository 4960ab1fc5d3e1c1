import Foundation
import SiseCore
import Synchronization

/// The premium's inputs against a chosen global venue, for the board's 김프 column and anything
/// that sorts or prints it: Binance's own prices (the premium feed's stream or REST); OKX and
/// Bybit their polled prices, all at the same rate and without the coins the
/// premium matrix doubts on that exchange (a ticker that is another coin shows no figure, never a
/// made-up one). Drawn at most once a second; a read is a look (the venues' pollers run).
public final class PremiumSources: Sendable {
    private struct Drawn: Sendable {
        var at: Int64
        /// Each venue's quotes, as the premium's inputs hold them.
        var quotes: [GlobalVenue: [String: GlobalQuote]]
        /// Each venue's doubted coins on each exchange.
        var doubts: [GlobalVenue: [Exchange: Set<String>]]
    }

    private let boards: ExchangeBoards
    private let feed: PremiumFeed?
    private let global: GlobalPrices?
    private let clock: WallClock
    private let drawn = Mutex<Drawn?>(nil)

    public init(boards: ExchangeBoards, feed: PremiumFeed?, global: GlobalPrices?, clock: WallClock) {
        self.boards = boards
        self.feed = feed
        self.global = global
        self.clock = clock
    }

    /// The inputs of premiums against `venue` on `exchange`: the venue's own prices, as the premium
    /// matrix reads them — a cell of the board's 김프 column has a figure exactly where the matrix's
    /// cell has one. (A coin Binance does not list has no Binance figure here; CoinGecko's price
    /// stands in only where a face names it as CoinGecko's: one coin's premium, `sise premium`.)
    public func inputs(_ venue: GlobalVenue, exchange: Exchange) -> PremiumInputs {
        // Binance's as the feed has them this instant (its moves re-send rows at once); the polled
        // venues' as drawn.
        var inputs = (feed?.inputs ?? .none).withoutStandIns
        let now = clock.now
        let current = drawn.withLock { $0.flatMap { now - $0.at < 1_000 ? $0 : nil } } ?? draw(now: now, fx: inputs.fx)
        let doubted = current.doubts[venue]?[exchange] ?? []
        inputs.global = (venue == .binance ? inputs.global : current.quotes[venue] ?? [:]).filter { !doubted.contains($0.key) }
        return inputs
    }

    /// Each venue's quotes now (a look), for a caller that follows them.
    public func venueQuotes() -> [GlobalVenue: [String: VenueQuote]] { global?.quotes() ?? [:] }

    private func draw(now: Int64, fx: FXQuote?) -> Drawn {
        let venues = global?.quotes() ?? [:]
        var korean: [Exchange: [String: PremiumMatrix.Leg]] = [:]
        for (exchange, board) in boards.all {
            let snapshot = board.snapshot
            var legs: [String: PremiumMatrix.Leg] = [:]
            for row in snapshot.rows(quote: .krw) {
                guard let at = snapshot.confirmedAt(row.id) else { continue }
                legs[row.id.base] = PremiumMatrix.Leg(price: row.ticker.price, at: at)
            }
            korean[exchange] = legs
        }
        var doubts: [GlobalVenue: [Exchange: Set<String>]] = [:]
        for row in PremiumMatrix.rows(korean: korean, venues: venues, fx: fx, now: now) {
            for (exchange, line) in row.cells {
                for (venue, cell) in line where cell.state == .doubt { doubts[venue, default: [:]][exchange, default: []].insert(row.symbol) }
            }
        }
        let quotes = venues.reduce(into: [GlobalVenue: [String: GlobalQuote]]()) { out, entry in
            let source = GlobalPriceSource(entry.key)
            out[entry.key] = entry.value.mapValues { GlobalQuote(price: $0.price, at: $0.at, source: source) }
        }
        let fresh = Drawn(at: now, quotes: quotes, doubts: doubts)
        drawn.withLock { $0 = fresh }
        return fresh
    }
}
