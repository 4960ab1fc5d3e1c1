import Foundation
import SiseCore
import SiseEngine

/// Encoded rows are kept per exchange and 김프 venue: the same row reads another premium against OKX.
struct FragmentKey: Hashable, Sendable {
    let exchange: Exchange
    let venue: GlobalVenue

    init(_ exchange: Exchange, _ venue: GlobalVenue) {
        self.exchange = exchange
        self.venue = venue
    }
}

/// The 김프 column follows its venue: Binance's prices and the rate as the premium feed tells of
/// them, OKX's and Bybit's as they are polled while some page's view measures against them.
extension BoardSocketHub {
    /// How often the polled venues' prices are compared with what pages were last sent.
    static let venueInterval = Duration.seconds(2)

    /// A global price or the rate moved: the KRW rows of those symbols (for the rate, those with a
    /// price abroad and KRW-USDT) are re-encoded and sent, on every exchange.
    func followPremium(_ premium: PremiumFeed) async {
        for await symbols in premium.updates() {
            if Task.isCancelled { return }
            let abroad = symbols.contains("*") ? pricedAbroad(premium) : []
            for (exchange, board) in boards.all {
                let ids = Self.moved(by: symbols, among: board.snapshot.rows.keys, pricedAbroad: abroad)
                guard !ids.isEmpty else { continue }
                publish(exchange, changed: Set(ids), status: nil, invalidate: ids)
            }
        }
    }

    /// The KRW rows whose 김프 `symbols` moved (`*`: the rate). The rate moves the premium of
    /// every row priced abroad and 테더 김프 (KRW-USDT against the official dollar); a row priced
    /// nowhere abroad has none before or after, and sending it again would repeat what every page
    /// holds — the whole board each time the dollar ticks (its rows' `ts` seconds old, as the
    /// exchange last traded them).
    static func moved(by symbols: Set<String>, among rows: some Collection<MarketID>, pricedAbroad: Set<String>) -> [MarketID] {
        let everything = symbols.contains("*")
        return rows.filter { id in
            guard id.quote == "KRW" else { return false }
            if symbols.contains(id.base) { return true }
            return everything && (id.base == "USDT" || pricedAbroad.contains(id.base))
        }
    }

    /// The symbols some global venue prices: Binance's (the premium feed's) and the polled ones'.
    private func pricedAbroad(_ premium: PremiumFeed) -> Set<String> {
        var symbols = Set(premium.inputs.global.keys)
        for quotes in (sources?.venueQuotes() ?? [:]).values { symbols.formUnion(quotes.keys) }
        return symbols
    }

    /// While a view measures against OKX or Bybit (a look that keeps their pollers running), the
    /// rows whose price there moved — or went stale, so no old figure stays on screen as live —
    /// are re-encoded and sent to the views of that venue alone.
    func followVenues(_ sources: PremiumSources) async {
        /// What each symbol's figure was made from: its price, and whether it was fresh.
        var sent: [GlobalVenue: [String: (price: Double, fresh: Bool)]] = [:]
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.venueInterval)
            let wanted = Set(clients.withLock { $0.groups.keys.map(\.parameters.venue) }).subtracting([.binance])
            for venue in Set(sent.keys).subtracting(wanted) { sent[venue] = nil }
            guard !wanted.isEmpty else { continue }
            let quotes = sources.venueQuotes()
            let now = clock.now
            for venue in wanted {
                let current = (quotes[venue] ?? [:]).mapValues { ($0.price, now - $0.at <= KimchiPremium.bound(GlobalPriceSource(venue))) }
                let before = sent[venue] ?? [:]
                let moved = Set(current.keys.filter { before[$0]?.price != current[$0]?.0 || before[$0]?.fresh != current[$0]?.1 })
                    .union(before.keys.filter { current[$0] == nil })
                sent[venue] = current.mapValues { (price: $0.0, fresh: $0.1) }
                guard !moved.isEmpty else { continue }
                for (exchange, board) in boards.all {
                    let ids = board.snapshot.rows.keys.filter { $0.quote == "KRW" && moved.contains($0.base) }
                    guard !ids.isEmpty else { continue }
                    publish(exchange, changed: Set(ids), status: nil, invalidate: ids, venues: [venue])
                }
            }
        }
    }
}
