import Foundation

/// One coin across the Korean exchanges: its KRW price on each, where it is dearest and
/// cheapest, and the gap between them. Stale venues are shown but left out of the gap.
public struct CompareRow: Sendable, Equatable {
    public var symbol: String
    public var koreanName: String
    public var englishName: String
    public var prices: [Exchange: Double]
    /// Venues whose price is not current (their feed is offline or idle).
    public var stale: Set<Exchange>
    public var high: Exchange?
    public var low: Exchange?
    /// `(max − min) / min` over the current venues; nil with fewer than two.
    public var gap: Double?

    /// Every current venue quotes the same price (`high` and `low` are then nil).
    public var tied: Bool { gap == 0 }

    public init(
        symbol: String,
        koreanName: String,
        englishName: String,
        prices: [Exchange: Double],
        stale: Set<Exchange>,
        high: Exchange?,
        low: Exchange?,
        gap: Double?
    ) {
        self.symbol = symbol
        self.koreanName = koreanName
        self.englishName = englishName
        self.prices = prices
        self.stale = stale
        self.high = high
        self.low = low
        self.gap = gap
    }

    public func name(in language: Language) -> String {
        switch language {
        case .ko: koreanName.isEmpty ? englishName : koreanName
        case .en: englishName.isEmpty ? koreanName : englishName
        }
    }
}

/// The cross-exchange board, decided once for the CLI, the API, the page and the TUI.
public enum CompareBoard {
    /// One venue's KRW rows and whether its prices are current.
    public struct Venue: Sendable {
        public var rows: [MarketRow]
        public var stale: Bool
        public init(rows: [MarketRow], stale: Bool) {
            self.rows = rows
            self.stale = stale
        }
    }

    public enum Sort: String, CaseIterable, Sendable {
        /// Widest gap first (rows without a gap last).
        case gap
        /// By symbol, A to Z.
        case symbol
    }

    /// Every coin listed in KRW on at least two venues (or only `symbols`, when given).
    public static func rows(_ venues: [Exchange: Venue], symbols: Set<String>? = nil, sort: Sort = .gap) -> [CompareRow] {
        var bySymbol: [String: CompareRow] = [:]
        for exchange in Exchange.allCases {
            guard let venue = venues[exchange] else { continue }
            for row in venue.rows where row.id.quote == QuoteCurrency.krw.rawValue && row.ticker.price > 0 {
                let symbol = row.market.symbol
                if let symbols, !symbols.contains(symbol) { continue }
                var entry =
                    bySymbol[symbol]
                    ?? CompareRow(
                        symbol: symbol,
                        koreanName: "",
                        englishName: "",
                        prices: [:],
                        stale: [],
                        high: nil,
                        low: nil,
                        gap: nil
                    )
                if entry.koreanName.isEmpty { entry.koreanName = row.market.koreanName }
                if entry.englishName.isEmpty || entry.englishName == symbol { entry.englishName = row.market.englishName }
                entry.prices[exchange] = row.ticker.price
                if venue.stale { entry.stale.insert(exchange) }
                bySymbol[symbol] = entry
            }
        }
        var rows = bySymbol.values.filter { $0.prices.count >= 2 }.map(measured)
        switch sort {
        case .gap: rows.sort { ($0.gap ?? -1, $1.symbol) > ($1.gap ?? -1, $0.symbol) }
        case .symbol: rows.sort { $0.symbol < $1.symbol }
        }
        return rows
    }

    /// High, low and gap over the venues that are current.
    static func measured(_ row: CompareRow) -> CompareRow {
        var row = row
        let current = row.prices.filter { !row.stale.contains($0.key) }
        guard current.count >= 2,
            let high = current.max(by: { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) }),
            let low = current.min(by: { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) }), low.value > 0
        else {
            return row
        }
        // Every current venue at one price: no dearest or cheapest to name, a gap of zero.
        let tied = high.value == low.value
        row.high = tied ? nil : high.key
        row.low = tied ? nil : low.key
        row.gap = (high.value - low.value) / low.value
        return row
    }
}
